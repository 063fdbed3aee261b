// GET /system/stats and /system/update.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
  await a.t.sql`insert into hardware (name) values ('a'), ('b')`;
  await a.t.sql`insert into docs (title) values ('d')`;
});
afterAll(async () => a.t.close());

describe("system", () => {
  it("stats: counts per table, database size, uptime and version", async () => {
    const stats = await (await a.req("GET", "system/stats", a.viewer)).json();
    expect(stats.counts).toMatchObject({ hardware: 2, docs: 1, services: 0, users: 3 });
    expect(stats.database.kind).toBe("postgres");
    expect(stats.database.size_bytes).toBeGreaterThan(1_000_000);
    expect(stats.version).toBe("0.0.0-test");
    expect(stats.uptime_s).toBeGreaterThanOrEqual(0);
    expect(Date.parse(stats.started_at)).not.toBeNaN();
  });

  it("update: never looks over the network", async () => {
    expect(await (await a.req("GET", "system/update", a.viewer)).json()).toEqual({
      current_version: "0.0.0-test",
      latest_version: null,
      update_available: false,
      detail: "This deployment does not check for updates over the network.",
    });
  });

  it("anonymous 401; a token without read:system is 403", async () => {
    expect((await a.req("GET", "system/stats")).status).toBe(401);
    const res = await a.req("POST", "auth/api-token", a.admin, { label: "narrow", scopes: ["write:telemetry"] });
    expect(res.status).toBe(201);
    const narrow = (await res.json()).token as string;
    expect((await a.req("GET", "system/stats", narrow)).status).toBe(403);
    expect((await a.req("GET", "system/update", narrow)).status).toBe(403);
  });
});
