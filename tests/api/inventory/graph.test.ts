import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
let ids: Record<"hw1" | "hw2" | "vm" | "web" | "db" | "net" | "conn", number>;

beforeAll(async () => {
  a = await createActors();
  const one = async (q: Promise<{ id: number }[]>) => (await q)[0]!.id;
  const s = a.t.sql;
  const hw1 = await one(s`insert into hardware (name, status) values ('pve-1', 'up') returning id`);
  const hw2 = await one(s`insert into hardware (name) values ('switch-1') returning id`);
  const vm = await one(s`insert into compute_units (name, kind, hardware_id) values ('vm-web', 'vm', ${hw1}) returning id`);
  const web = await one(s`insert into services (name, slug, compute_id) values ('web', 'web', ${vm}) returning id`);
  const db = await one(s`insert into services (name, slug, hardware_id) values ('db', 'db', ${hw1}) returning id`);
  const net = await one(s`insert into networks (name, cidr) values ('lan', '10.0.0.0/24') returning id`);
  const conn = await one(s`insert into hardware_connections (source_hardware_id, target_hardware_id) values (${hw1}, ${hw2}) returning id`);
  await s`insert into service_dependencies (service_id, depends_on_id) values (${web}, ${db})`;
  await s`insert into network_hardware_members (network_id, hardware_id) values (${net}, ${hw1})`;
  ids = { hw1, hw2, vm, web, db, net, conn };
});
afterAll(async () => a.t.close());

describe("graph", () => {
  it("returns every object as a node and every relation as an edge", async () => {
    const res = await a.req("GET", "graph/topology", a.viewer);
    expect(res.status).toBe(200);
    const g = await res.json();
    expect(g.nodes.map((n: { id: string }) => n.id).sort()).toEqual(
      [`hw-${ids.hw1}`, `hw-${ids.hw2}`, `cu-${ids.vm}`, `svc-${ids.web}`, `svc-${ids.db}`, `net-${ids.net}`].sort(),
    );
    const edges = Object.fromEntries(
      g.edges.map((e: { id: string; source: string; target: string; relation: string }) => [e.id, [e.source, e.target, e.relation]]),
    );
    expect(edges).toEqual({
      [`e-hh-${ids.conn}`]: [`hw-${ids.hw1}`, `hw-${ids.hw2}`, "connects_to"],
      [`e-hc-${ids.vm}`]: [`hw-${ids.hw1}`, `cu-${ids.vm}`, "hosts"],
      [`e-cs-${ids.web}`]: [`cu-${ids.vm}`, `svc-${ids.web}`, "runs"],
      [`e-hs-${ids.db}`]: [`hw-${ids.hw1}`, `svc-${ids.db}`, "runs"],
      [`e-ss-${ids.web}-${ids.db}`]: [`svc-${ids.web}`, `svc-${ids.db}`, "depends_on"],
      [`e-hn-${ids.net}-${ids.hw1}`]: [`hw-${ids.hw1}`, `net-${ids.net}`, "on_network"],
    });
    const hw = g.nodes.find((n: { id: string }) => n.id === `hw-${ids.hw1}`);
    expect(hw).toMatchObject({ type: "hardware", label: "pve-1", ref_id: ids.hw1, status: "up" });
  });

  it("gzips the whole graph for a client that takes gzip, and only then", async () => {
    const plain = await a.req("GET", "graph/topology", a.viewer);
    expect(plain.headers.get("content-encoding")).toBeNull();
    const text = await plain.text();
    const zipped = await a.req("GET", "graph/topology", a.viewer, undefined, { "accept-encoding": "gzip, deflate, br" });
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toMatch(/accept-encoding/i);
    const unzipped = await new Response(zipped.body!.pipeThrough(new DecompressionStream("gzip"))).text();
    expect(JSON.parse(unzipped)).toEqual(JSON.parse(text));
    // Not every answer: a small one of another route stays as it is.
    const summary = await a.req("GET", "graph/summary", a.viewer, undefined, { "accept-encoding": "gzip" });
    expect(summary.headers.get("content-encoding")).toBeNull();
  });

  it("summarises the graph (nodes per kind, edges per pair of kinds) in agreement with the whole graph", async () => {
    const res = await a.req("GET", "graph/summary", a.viewer);
    expect(res.status).toBe(200);
    const sum = await res.json();
    const g = await (await a.req("GET", "graph/topology", a.viewer)).json();
    expect(sum.counts).toEqual(g.counts);
    const perKind: Record<string, number> = {};
    for (const n of g.nodes as { type: string }[]) perKind[n.type] = (perKind[n.type] ?? 0) + 1;
    expect(Object.fromEntries(sum.kinds.map((k: { type: string; count: number }) => [k.type, k.count]))).toEqual(perKind);
    const typeOf = new Map((g.nodes as { id: string; type: string }[]).map((n) => [n.id, n.type]));
    const perPair: Record<string, number> = {};
    for (const e of g.edges as { source: string; target: string }[]) {
      const key = `${typeOf.get(e.source)}>${typeOf.get(e.target)}`;
      perPair[key] = (perPair[key] ?? 0) + 1;
    }
    expect(
      Object.fromEntries(
        sum.links.map((l: { source_type: string; target_type: string; count: number }) => [`${l.source_type}>${l.target_type}`, l.count]),
      ),
    ).toEqual(perPair);
    const hwOnly = await (await a.req("GET", "graph/summary?types=hardware", a.viewer)).json();
    expect(hwOnly).toEqual({
      counts: { nodes: 2, edges: 1 },
      kinds: [{ type: "hardware", count: 2 }],
      links: [{ source_type: "hardware", target_type: "hardware", count: 1 }],
    });
    expect((await a.req("GET", "graph/summary?types=spaceship", a.viewer)).status).toBe(422);
    expect((await a.req("GET", "graph/summary")).status).toBe(401);
  });

  it("filters by node type and keeps only edges inside the selection", async () => {
    const g = await (await a.req("GET", "graph/topology?types=hardware", a.viewer)).json();
    expect(g.nodes).toHaveLength(2);
    expect(g.edges.map((e: { relation: string }) => e.relation)).toEqual(["connects_to"]);
    expect((await a.req("GET", "graph/topology?types=spaceship", a.viewer)).status).toBe(422);
  });

  it("saves a layout, places a node, and shows positions on the graph", async () => {
    const saved = await a.req("POST", "graph/layout", a.editor, { positions: { [`hw-${ids.hw1}`]: { x: 1, y: 2 } } });
    expect(saved.status).toBe(200);
    expect((await a.req("POST", "graph/place-node", a.editor, { node_id: `svc-${ids.web}`, x: 5, y: 6 })).status).toBe(200);
    const layout = await (await a.req("GET", "graph/layout", a.viewer)).json();
    expect(layout.positions).toEqual({ [`hw-${ids.hw1}`]: { x: 1, y: 2 }, [`svc-${ids.web}`]: { x: 5, y: 6 } });
    const g = await (await a.req("GET", "graph/topology", a.viewer)).json();
    expect(g.nodes.find((n: { id: string }) => n.id === `svc-${ids.web}`).position).toEqual({ x: 5, y: 6 });
    expect((await a.req("POST", "graph/place-node", a.editor, { node_id: "nope-1", x: 0, y: 0 })).status).toBe(422);
  });

  it("edits and removes edges; a removed reference edge clears the key, a link edge deletes the row", async () => {
    const patched = await a.req("PATCH", `graph/edges/e-hh-${ids.conn}`, a.editor, { bandwidth_mbps: 2500 });
    expect(patched.status).toBe(200);
    expect((await patched.json()).bandwidth_mbps).toBe(2500);
    expect((await a.req("PATCH", `graph/edges/e-ss-${ids.web}-${ids.db}`, a.editor, { weight: 1 })).status).toBe(422);
    expect((await a.req("DELETE", `graph/edges/e-ss-${ids.web}-${ids.db}`, a.editor)).status).toBe(204);
    expect((await a.req("DELETE", `graph/edges/e-ss-${ids.web}-${ids.db}`, a.editor)).status).toBe(404);
    expect((await a.req("DELETE", `graph/edges/e-hs-${ids.db}`, a.editor)).status).toBe(204);
    expect((await a.t.sql`select hardware_id from services where id = ${ids.db}`)[0]!.hardware_id).toBeNull();
    expect((await a.req("DELETE", "graph/edges/e-zz-1", a.editor)).status).toBe(404);
  });

  it("security: viewer cannot change edges or layouts", async () => {
    expect((await a.req("DELETE", `graph/edges/e-hh-${ids.conn}`, a.viewer)).status).toBe(403);
    expect((await a.req("POST", "graph/layout", a.viewer, { positions: {} })).status).toBe(403);
    expect((await a.req("GET", "graph/topology")).status).toBe(401);
  });
});

describe("search", () => {
  it("finds across resource types, name matches first", async () => {
    await a.t.sql`insert into storage (name, kind, path) values ('tank', 'pool', '/mnt/web-data')`;
    const res = await a.req("GET", "search?q=WEB", a.viewer);
    expect(res.status).toBe(200);
    const body = await res.json();
    const found = body.results.map((r: { type: string; name: string }) => `${r.type}:${r.name}`);
    expect(found).toEqual(expect.arrayContaining(["compute_unit:vm-web", "service:web", "storage:tank"]));
    expect(body.counts.service).toBe(1);
  });

  it("limits types, and refuses an empty query", async () => {
    const body = await (await a.req("GET", "search?q=web&types=service", a.viewer)).json();
    expect(body.results.every((r: { type: string }) => r.type === "service")).toBe(true);
    expect((await a.req("GET", "search?q=", a.viewer)).status).toBe(422);
    expect((await a.req("GET", "search?q=web")).status).toBe(401);
  });
});
