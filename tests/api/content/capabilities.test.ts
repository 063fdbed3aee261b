// GET /capabilities: what this process was really given.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

describe("capabilities", () => {
  it("reports this process honestly: PostgreSQL, Redis only when configured, not the edge", async () => {
    const caps = await (await a.req("GET", "capabilities", a.viewer)).json();
    expect(caps).toMatchObject({ database: "postgres", redis: false, edge: false });
    expect(caps.features).toMatchObject({ uploads: true, markdown_docs: true, update_check: false, rate_limit_store: "database" });
    expect(typeof caps.features.avatars).toBe("boolean");
  });

  it("says redis when this process was given one", async () => {
    const withRedis = await createActors({ REDIS_URL: "redis://127.0.0.1:6379" });
    try {
      const caps = await (await withRedis.req("GET", "capabilities", withRedis.viewer)).json();
      expect(caps).toMatchObject({ redis: true, features: { rate_limit_store: "redis" } });
    } finally {
      await withRedis.t.close();
    }
  });

  it("needs a signed-in user", async () => {
    expect((await a.req("GET", "capabilities")).status).toBe(401);
  });
});
