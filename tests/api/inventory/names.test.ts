// GET /inventory/names against real PostgreSQL: every kind asked answered in one request, an unknown id
// left out, an IP address named by its address, a kind the caller cannot read refused (403) with no names
// given, and a malformed or oversized list a 422.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const create = async (path: string, body: Record<string, unknown>) => {
  const res = await a.req("POST", path, a.admin, body);
  expect(res.status, path).toBe(201);
  return (await res.json()).id as number;
};

describe("GET /inventory/names", () => {
  it("names records of several kinds at once; unknown ids are left out", async () => {
    const hw1 = await create("hardware", { name: "rack1-srv01" });
    const hw2 = await create("hardware", { name: "rack1-srv02" });
    const site = await create("sites", { name: "dc-east" });
    const net = await create("networks", { name: "lan-names", cidr: "10.77.0.0/24" });
    const ip = await create("ipam", { address: "10.77.0.9", network_id: net });
    const env = await create("environments", { name: "prod-names" });
    const res = await a.req(
      "GET",
      `inventory/names?hardware=${hw1},${hw2},987654&site=${site}&ip_address=${ip}&environment=${env}`,
      a.viewer,
    );
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as { items: { type: string; id: number; name: string }[] };
    expect(items.sort((x, y) => `${x.type}${x.id}`.localeCompare(`${y.type}${y.id}`))).toEqual(
      [
        { type: "environment", id: env, name: "prod-names" },
        { type: "hardware", id: hw1, name: "rack1-srv01" },
        { type: "hardware", id: hw2, name: "rack1-srv02" },
        { type: "ip_address", id: ip, name: "10.77.0.9" },
        { type: "site", id: site, name: "dc-east" },
      ].sort((x, y) => `${x.type}${x.id}`.localeCompare(`${y.type}${y.id}`)),
    );
  });

  it("asking nothing answers nothing", async () => {
    const res = await a.req("GET", "inventory/names", a.viewer);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ items: [] });
  });

  it("a kind the caller cannot read is refused, naming its scope", async () => {
    const hw = await create("hardware", { name: "hidden-node" });
    const svc = await create("services", { name: "svc-names" });
    // A token that reads services only.
    const minted = await a.req("POST", "auth/api-token", a.admin, { label: "services only", scopes: ["read:services"] });
    expect(minted.status).toBe(201);
    const token = (await minted.json()).token as string;
    const ok = await a.req("GET", `inventory/names?service=${svc}`, token);
    expect(ok.status).toBe(200);
    expect((await ok.json()).items).toEqual([{ type: "service", id: svc, name: "svc-names" }]);
    const denied = await a.req("GET", `inventory/names?service=${svc}&hardware=${hw}`, token);
    expect(denied.status).toBe(403);
    const body = await denied.json();
    expect(body.detail).toContain("read:hardware");
    expect(JSON.stringify(body)).not.toContain("hidden-node");
    expect((await a.req("GET", `inventory/names?hardware=${hw}`)).status).toBe(401);
  });

  it("a malformed or oversized id list is a 422", async () => {
    expect((await a.req("GET", "inventory/names?hardware=1,x", a.viewer)).status).toBe(422);
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(",");
    const res = await a.req("GET", `inventory/names?hardware=${many}`, a.viewer);
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0].msg).toContain("At most 100");
  });
});
