import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

const create = async (body: Record<string, unknown>) => {
  const res = await a.req("POST", "prefixes", a.editor, body);
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; prefix: string };
};
const free = async (id: number, query: string) => a.req("GET", `prefixes/${id}/available-prefixes?${query}`, a.viewer);
const prefixesOf = async (res: Response) => ((await res.json()).items as { prefix: string }[]).map((i) => i.prefix);
const count = async () => Number((await a.t.sql`select count(*)::int as n from prefixes`)[0]!.n);

describe("available prefixes", () => {
  it("IPv4: the next free blocks skip taken children, aligned", async () => {
    const parent = await create({ prefix: "10.40.0.0/24", status: "container" });
    await create({ prefix: "10.40.0.0/26" });
    await create({ prefix: "10.40.0.96/27" });
    expect(await prefixesOf(await free(parent.id, "length=27&limit=3"))).toEqual(["10.40.0.64/27", "10.40.0.128/27", "10.40.0.160/27"]);
    expect(await prefixesOf(await free(parent.id, "length=25"))).toEqual(["10.40.0.128/25"]);
    expect(await prefixesOf(await free(parent.id, "length=32&limit=2"))).toEqual(["10.40.0.64/32", "10.40.0.65/32"]);
  });

  it("IPv6: /64s inside a /48", async () => {
    const parent = await create({ prefix: "2001:db8:40::/48", status: "container" });
    await create({ prefix: "2001:db8:40::/64" });
    expect(await prefixesOf(await free(parent.id, "length=64&limit=2"))).toEqual(["2001:db8:40:1::/64", "2001:db8:40:2::/64"]);
  });

  it("a length outside the parent's range is 422; an unknown prefix 404", async () => {
    const parent = await create({ prefix: "10.41.0.0/24" });
    for (const length of [24, 16, 33]) {
      const res = await free(parent.id, `length=${length}`);
      expect(res.status, String(length)).toBe(422);
    }
    const msg = (await (await free(parent.id, "length=20")).json()).fields.length;
    expect(msg).toBe("A child of 10.41.0.0/24 has a length from /25 to /32; /20 is outside.");
    const before = await count();
    const post = await a.req("POST", `prefixes/${parent.id}/available-prefixes`, a.editor, { length: 8 });
    expect(post.status).toBe(422);
    expect(await count()).toBe(before);
    expect((await free(999999, "length=25")).status).toBe(404);
  });

  it("POST allocates the first free block as a prefix in the parent's VRF; a full parent is 409", async () => {
    const vrf = await (await a.req("POST", "vrfs", a.editor, { name: "alloc" })).json();
    const parent = await create({ prefix: "10.42.0.0/30", vrf_id: vrf.id, status: "container" });
    const res = await a.req("POST", `prefixes/${parent.id}/available-prefixes`, a.editor, { length: 31, description: "p2p" });
    expect(res.status).toBe(201);
    expect(res.headers.get("etag")).toBe('W/"1"');
    expect(await res.json()).toMatchObject({
      prefix: "10.42.0.0/31",
      vrf_id: vrf.id,
      parent_id: parent.id,
      description: "p2p",
      status: "active",
    });
    await a.req("POST", `prefixes/${parent.id}/available-prefixes`, a.editor, { length: 31 });
    const before = await count();
    const full = await a.req("POST", `prefixes/${parent.id}/available-prefixes`, a.editor, { length: 31 });
    expect(full.status).toBe(409);
    expect(await count()).toBe(before);
    const audit = await a.t.sql`select count(*)::int as n from audit_log where action = 'prefix.create'`;
    expect(audit[0]!.n).toBeGreaterThanOrEqual(2);
  });

  it("concurrent allocations never get the same block", async () => {
    const parent = await create({ prefix: "10.43.0.0/24", status: "container" });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => a.req("POST", `prefixes/${parent.id}/available-prefixes`, a.editor, { length: 28 })),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const got = await Promise.all(results.map(async (r) => (await r.json()).prefix as string));
    expect(new Set(got).size).toBe(6);
    expect(got.sort()).toEqual(["10.43.0.0/28", "10.43.0.16/28", "10.43.0.32/28", "10.43.0.48/28", "10.43.0.64/28", "10.43.0.80/28"]);
  });
});

describe("available addresses", () => {
  it("skips used addresses, the network and broadcast; a pool offers them", async () => {
    const p = await create({ prefix: "10.44.0.0/29" });
    await a.req("POST", "ipam", a.editor, { address: "10.44.0.1" });
    const res = await a.req("GET", `prefixes/${p.id}/available-ips?limit=3`, a.viewer);
    expect(await res.json()).toEqual({ prefix_id: p.id, prefix: "10.44.0.0/29", items: ["10.44.0.2", "10.44.0.3", "10.44.0.4"] });
    const pool = await create({ prefix: "10.44.1.0/30", is_pool: true });
    const all = await (await a.req("GET", `prefixes/${pool.id}/available-ips?limit=10`, a.viewer)).json();
    expect(all.items).toEqual(["10.44.1.0", "10.44.1.1", "10.44.1.2", "10.44.1.3"]);
  });
});
