import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

type P = {
  id: number;
  prefix: string;
  parent_id: number | null;
  depth: number;
  children: number;
  utilisation: { used: string; total: string; percent: number };
};
const create = async (body: Record<string, unknown>): Promise<P> => {
  const res = await a.req("POST", "prefixes", a.editor, body);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  return res.json();
};
const get = async (id: number): Promise<P> => (await a.req("GET", `prefixes/${id}`, a.viewer)).json();
const count = async () => Number((await a.t.sql`select count(*)::int as n from prefixes`)[0]!.n);

describe("prefixes: containment is found, not declared", () => {
  it("a /24 created before its /16 is found under it, and the /8 above both", async () => {
    const p24 = await create({ prefix: "10.1.2.0/24" });
    expect(p24).toMatchObject({ parent_id: null, depth: 0, children: 0, family: 4, status: "active" });
    const p16 = await create({ prefix: "10.1.0.0/16", status: "container" });
    expect(p16).toMatchObject({ parent_id: null, depth: 0, children: 1 });
    expect(await get(p24.id)).toMatchObject({ parent_id: p16.id, depth: 1 });
    const p8 = await create({ prefix: "10.0.0.0/8", status: "container" });
    const p25 = await create({ prefix: "10.1.2.128/25" });
    expect(p25).toMatchObject({ parent_id: p24.id, depth: 3 });
    expect(await get(p8.id)).toMatchObject({ children: 3, depth: 0 });
    expect(await get(p16.id)).toMatchObject({ parent_id: p8.id, depth: 1, children: 2 });

    const within = await (await a.req("GET", "prefixes?within=10.1.0.0/16&sort=prefix", a.viewer)).json();
    expect(within.items.map((p: P) => p.prefix)).toEqual(["10.1.2.0/24", "10.1.2.128/25"]);
    const holding = await (await a.req("GET", "prefixes?contains=10.1.2.200&sort=prefix", a.viewer)).json();
    expect(holding.items.map((p: P) => p.prefix)).toEqual(["10.0.0.0/8", "10.1.0.0/16", "10.1.2.0/24", "10.1.2.128/25"]);

    // Deleting the /16 re-parents the /24 under the /8.
    expect((await a.req("DELETE", `prefixes/${p16.id}`, a.admin)).status).toBe(204);
    expect(await get(p24.id)).toMatchObject({ parent_id: p8.id, depth: 1 });
  });

  it("IPv6 nests the same way and the family filter separates them", async () => {
    const p32 = await create({ prefix: "2001:DB8::/32", status: "container" });
    expect(p32.prefix).toBe("2001:db8::/32");
    const p48 = await create({ prefix: "2001:db8:1::/48" });
    expect(p48).toMatchObject({ parent_id: p32.id, depth: 1, family: 6 });
    const v6 = await (await a.req("GET", "prefixes?family=6", a.viewer)).json();
    expect(v6.items.map((p: P) => p.prefix).sort()).toEqual(["2001:db8:1::/48", "2001:db8::/32"]);
    expect((await get(p32.id)).utilisation).toEqual({ used: String(2n ** 80n), total: String(2n ** 96n), percent: 0 });
  });
});

describe("prefixes: utilisation", () => {
  it("a container counts child prefixes; an active prefix also counts addresses; mark_utilized is full", async () => {
    const box = await create({ prefix: "172.16.0.0/22", status: "container" });
    await create({ prefix: "172.16.0.0/24" });
    await create({ prefix: "172.16.0.0/25" }); // inside the /24: not counted twice
    await create({ prefix: "172.16.1.0/24", status: "reserved" });
    expect((await get(box.id)).utilisation).toEqual({ used: "512", total: "1024", percent: 50 });

    const lan = await create({ prefix: "192.168.50.0/24" });
    await a.req("POST", "ipam", a.editor, { address: "192.168.50.10", status: "allocated" });
    await a.req("POST", "ipam", a.editor, { address: "192.168.50.11", status: "free" });
    await a.t.sql`insert into hardware (name, ip_address) values ('srv', '192.168.50.20')`;
    await create({ prefix: "192.168.50.128/30" });
    expect((await get(lan.id)).utilisation).toEqual({ used: "6", total: "256", percent: 2.34 });

    const full = await create({ prefix: "192.168.60.0/24", mark_utilized: true });
    expect(full.utilisation).toEqual({ used: "256", total: "256", percent: 100 });
  });
});

describe("prefixes: duplicates", () => {
  it("the global table refuses a duplicate with 409 naming the holder; nothing changes", async () => {
    const first = await create({ prefix: "10.200.0.0/24" });
    const before = await count();
    const dup = await a.req("POST", "prefixes", a.editor, { prefix: "10.200.0.0/24" });
    expect(dup.status).toBe(409);
    const body = await dup.json();
    expect(body.fields.prefix).toBe(`10.200.0.0/24 already exists in the global table (prefix ${first.id}).`);
    expect(body.existing_id).toBe(first.id);
    expect(await count()).toBe(before);
  });

  it("the same prefix is allowed across VRFs, refused within one, allowed where enforce_unique is off", async () => {
    const red = await (await a.req("POST", "vrfs", a.editor, { name: "red", rd: "65000:1" })).json();
    const blue = await (await a.req("POST", "vrfs", a.editor, { name: "blue", rd: "65000:2", enforce_unique: false })).json();
    const inRed = await create({ prefix: "10.210.0.0/24", vrf_id: red.id });
    await create({ prefix: "10.210.0.0/24" });
    await create({ prefix: "10.210.0.0/24", vrf_id: blue.id });
    await create({ prefix: "10.210.0.0/24", vrf_id: blue.id });
    const before = await count();
    const dup = await a.req("POST", "prefixes", a.editor, { prefix: "10.210.0.0/24", vrf_id: red.id });
    expect(dup.status).toBe(409);
    expect((await dup.json()).fields.prefix).toBe(`10.210.0.0/24 already exists in VRF ${red.id} (prefix ${inRed.id}).`);
    expect(await count()).toBe(before);
    // A prefix in the red VRF is not the parent of one in the global table.
    const child = await create({ prefix: "10.210.0.0/26" });
    expect(child.parent_id).not.toBe(inRed.id);
    // Turning enforcement on over duplicates is a 409 naming them.
    const on = await a.req("PATCH", `vrfs/${blue.id}`, a.editor, { enforce_unique: true });
    expect(on.status).toBe(409);
    expect((await on.json()).detail).toContain("10.210.0.0/24 (prefixes");
  });
});

describe("prefixes: refusals", () => {
  it("an invalid cidr or host bits is 422 naming the field and the network address", async () => {
    const before = await count();
    const host = await a.req("POST", "prefixes", a.editor, { prefix: "10.5.5.5/24" });
    expect(host.status).toBe(422);
    expect((await host.json()).fields.prefix).toBe("Host bits are set; the network is 10.5.5.0/24.");
    const v6 = await a.req("POST", "prefixes", a.editor, { prefix: "2001:db8::1/64" });
    expect((await v6.json()).fields.prefix).toBe("Host bits are set; the network is 2001:db8::/64.");
    for (const prefix of ["10.0.0.0/33", "nonsense", "10.0.0.0", ""]) {
      const res = await a.req("POST", "prefixes", a.editor, { prefix });
      expect(res.status, prefix).toBe(422);
      expect((await res.json()).fields.prefix, prefix).toBeTruthy();
    }
    for (const [field, value] of [
      ["vrf_id", 999999],
      ["site_id", 999999],
      ["vlan_id", 999999],
      ["status", "gone"],
    ] as const) {
      const res = await a.req("POST", "prefixes", a.editor, { prefix: "10.6.0.0/24", [field]: value });
      expect(res.status, field).toBe(422);
      expect((await res.json()).fields[field], field).toBeTruthy();
    }
    expect((await a.req("GET", "prefixes?within=10.0.0.1/8", a.viewer)).status).toBe(422);
    expect((await a.req("GET", "prefixes?family=5", a.viewer)).status).toBe(422);
    expect((await a.req("POST", "prefixes", a.viewer, { prefix: "10.7.0.0/24" })).status).toBe(403);
    expect(await count()).toBe(before);
  });

  it("PATCH honours If-Match and a moved prefix is checked for duplicates", async () => {
    const p = await create({ prefix: "10.220.0.0/24" });
    await create({ prefix: "10.220.1.0/24" });
    const stale = await a.req("PATCH", `prefixes/${p.id}`, a.editor, { description: "x" }, { "if-match": 'W/"9"' });
    expect(stale.status).toBe(412);
    const move = await a.req("PATCH", `prefixes/${p.id}`, a.editor, { prefix: "10.220.1.0/24" });
    expect(move.status).toBe(409);
    const ok = await a.req("PATCH", `prefixes/${p.id}`, a.editor, { description: "lab" }, { "if-match": 'W/"1"' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("etag")).toBe('W/"2"');
    expect((await get(p.id)).prefix).toBe("10.220.0.0/24");
  });
});

describe("networks are linked to their prefix", () => {
  it("a network answers the closest global prefix containing its cidr", async () => {
    const net = await (await a.req("POST", "networks", a.editor, { name: "lab", cidr: "100.70.1.0/24" })).json();
    expect(net.prefix_id).toBeNull();
    const p16 = await create({ prefix: "100.70.0.0/16", status: "container" });
    expect((await (await a.req("GET", `networks/${net.id}`, a.viewer)).json()).prefix_id).toBe(p16.id);
    const p24 = await create({ prefix: "100.70.1.0/24" });
    expect((await (await a.req("GET", `networks/${net.id}`, a.viewer)).json()).prefix_id).toBe(p24.id);
  });
});
