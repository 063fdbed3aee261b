import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

describe("hardware: happy", () => {
  it("creates, reads, lists, patches and deletes", async () => {
    const created = await a.req("POST", "hardware", a.editor, {
      name: "pve-01",
      role: "hypervisor",
      memory_gb: 64,
      tags: ["rack-a", "prod", "prod"],
    });
    expect(created.status).toBe(201);
    const hw = await created.json();
    expect(hw).toMatchObject({
      name: "pve-01",
      role: "hypervisor",
      memory_gb: 64,
      status: "unknown",
      tags: ["rack-a", "prod"],
      version: 1,
    });
    expect(created.headers.get("etag")).toBe('W/"1"');

    const got = await a.req("GET", `hardware/${hw.id}`, a.viewer);
    expect(got.status).toBe(200);
    expect((await got.json()).name).toBe("pve-01");

    const patched = await a.req("PATCH", `hardware/${hw.id}`, a.editor, { notes: "in the basement", id: 999, created_at: "x" });
    expect(patched.status).toBe(200);
    const after = await patched.json();
    expect(after).toMatchObject({ notes: "in the basement", role: "hypervisor", version: 2, id: hw.id });

    const list = await a.req("GET", "hardware?q=PVE&sort=name&direction=desc&limit=500", a.viewer);
    const page = await list.json();
    expect(page).toMatchObject({ total: 1, limit: 100, offset: 0, sort: "name", direction: "desc" });
    expect(page.items[0].id).toBe(hw.id);

    const tags = await a.t.sql`select name from tags order by name`;
    expect(tags.map((r) => r.name)).toEqual(["prod", "rack-a"]);

    expect((await a.req("DELETE", `hardware/${hw.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `hardware/${hw.id}`, a.viewer)).status).toBe(404);
    const audit = await a.t.sql`select action from audit_log where entity_type = 'hardware' order by id`;
    expect(audit.map((r) => r.action)).toEqual(["hardware.create", "hardware.update", "hardware.delete"]);
  });

  it("filters by status and tag, and searches with literal wildcards", async () => {
    for (const [name, status, tags] of [
      ["a_1", "up", ["x"]],
      ["ab1", "down", ["y"]],
      ["c%", "up", ["x", "y"]],
    ] as const)
      expect((await a.req("POST", "hardware", a.editor, { name, status, tags })).status).toBe(201);
    const up = await (await a.req("GET", "hardware?status=up", a.viewer)).json();
    expect(up.items.map((h: { name: string }) => h.name)).toEqual(["a_1", "c%"]);
    const tagged = await (await a.req("GET", "hardware?tag=y", a.viewer)).json();
    expect(tagged.total).toBe(2);
    const underscore = await (await a.req("GET", "hardware?q=a_", a.viewer)).json();
    expect(underscore.items.map((h: { name: string }) => h.name)).toEqual(["a_1"]);
    const percent = await (await a.req("GET", "hardware?q=%25", a.viewer)).json();
    expect(percent.items.map((h: { name: string }) => h.name)).toEqual(["c%"]);
  });

  it("connects nodes and lists the connection from both ends", async () => {
    const x = await (await a.req("POST", "hardware", a.editor, { name: "sw-1" })).json();
    const y = await (await a.req("POST", "hardware", a.editor, { name: "sw-2" })).json();
    const conn = await a.req("POST", `hardware/${x.id}/connections`, a.editor, { target_hardware_id: y.id, bandwidth_mbps: 10000 });
    expect(conn.status).toBe(201);
    const c = await conn.json();
    expect((await (await a.req("GET", `hardware/${y.id}/connections`, a.viewer)).json()).map((r: { id: number }) => r.id)).toEqual([c.id]);
    expect(
      (await a.req("POST", `hardware/${x.id}/connections`, a.editor, { target_hardware_id: y.id, bandwidth_mbps: 10000 })).status,
    ).toBe(409);
    expect((await a.req("DELETE", `hardware-connections/${c.id}`, a.editor)).status).toBe(204);
    expect((await a.req("DELETE", `hardware-connections/${c.id}`, a.editor)).status).toBe(404);
  });
});

describe("hardware: errors", () => {
  it("404 names the resource and id", async () => {
    const res = await a.req("GET", "hardware/424242", a.viewer);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error_code: "RESOURCE_NOT_FOUND", detail: "Hardware node 424242 was not found." });
  });

  it("422 names bad and unknown fields, and nothing is stored", async () => {
    const res = await a.req("POST", "hardware", a.editor, { name: "", memory_gb: -1, colour: "red" });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(Object.keys(body.fields).sort()).toEqual(["colour", "memory_gb", "name"]);
    expect((await a.t.sql`select count(*)::int as n from hardware where name = ''`)[0]!.n).toBe(0);
  });

  it("a missing environment reference is a 422 naming the field", async () => {
    const res = await a.req("POST", "hardware", a.editor, { name: "orphan", environment_id: 9999 });
    expect(res.status).toBe(422);
    expect((await res.json()).fields).toHaveProperty("environment_id");
  });

  it("If-Match with a stale version is 412 and changes nothing", async () => {
    const hw = await (await a.req("POST", "hardware", a.editor, { name: "etag-node" })).json();
    expect((await a.req("PATCH", `hardware/${hw.id}`, a.editor, { role: "one" }, { "if-match": 'W/"1"' })).status).toBe(200);
    const stale = await a.req("PATCH", `hardware/${hw.id}`, a.editor, { role: "two" }, { "if-match": 'W/"1"' });
    expect(stale.status).toBe(412);
    expect((await (await a.req("GET", `hardware/${hw.id}`, a.viewer)).json()).role).toBe("one");
  });

  it("deleting a node that still hosts things is 409 listing them", async () => {
    const hw = await (await a.req("POST", "hardware", a.editor, { name: "host-with-vm" })).json();
    await a.t.sql`insert into compute_units (name, kind, hardware_id) values ('vm-1', 'vm', ${hw.id})`;
    const res = await a.req("DELETE", `hardware/${hw.id}`, a.admin);
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.detail).toContain("vm-1");
    expect(body.dependents[0]).toMatchObject({ type: "compute_unit", name: "vm-1" });
  });
});

describe("hardware: security", () => {
  it("anonymous 401, viewer cannot write, editor cannot delete", async () => {
    expect((await a.req("GET", "hardware")).status).toBe(401);
    expect((await a.req("POST", "hardware", a.viewer, { name: "nope" })).status).toBe(403);
    const hw = await (await a.req("POST", "hardware", a.editor, { name: "keep" })).json();
    expect((await a.req("DELETE", `hardware/${hw.id}`, a.editor)).status).toBe(403);
    // 403 comes before validation: a viewer learns nothing about the body rules.
    expect((await a.req("POST", "hardware", a.viewer, { name: "" })).status).toBe(403);
  });
});

describe("hardware: one 422 for every problem", () => {
  it("names an unknown field even when a known one is also wrong", async () => {
    const res = await a.req("POST", "hardware", a.editor, { name: "x", status: "exploded", colour: "red" });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).fields).sort()).toEqual(["colour", "status"]);
  });
});

describe("hardware: deleting forgets references", () => {
  it("drops doc attachments, map pins, topology nodes, layout positions and IPAM assignments", async () => {
    const hw = await (await a.req("POST", "hardware", a.editor, { name: "to-forget" })).json();
    const s = a.t.sql;
    const [doc] = await s`insert into docs (title) values ('runbook') returning id`;
    await s`insert into doc_entities (doc_id, entity_type, entity_id) values (${doc!.id}, 'hardware', ${hw.id})`;
    await s`insert into map_pins (entity_type, entity_id, latitude, longitude) values ('hardware', ${hw.id}, 1, 2)`;
    const [topo] = await s`insert into topologies (name) values ('t') returning id`;
    await s`insert into topology_nodes (topology_id, node_id) values (${topo!.id}, ${`hw-${hw.id}`})`;
    await s`insert into graph_layouts (name, positions) values ('default', ${s.json({ [`hw-${hw.id}`]: { x: 1, y: 1 }, "hw-999999": { x: 2, y: 2 } })}) on conflict (name) do update set positions = excluded.positions`;
    await s`insert into ip_addresses (address, assigned_type, assigned_id) values ('10.99.0.9', 'hardware', ${hw.id})`;
    expect((await a.req("DELETE", `hardware/${hw.id}`, a.admin)).status).toBe(204);
    const [left] = await s`select
      (select count(*)::int from doc_entities where entity_id = ${hw.id}) as docs,
      (select count(*)::int from map_pins where entity_id = ${hw.id}) as pins,
      (select count(*)::int from topology_nodes where node_id = ${`hw-${hw.id}`}) as topo,
      (select positions from graph_layouts where name = 'default') as layout,
      (select assigned_id from ip_addresses where address = '10.99.0.9') as ip`;
    expect(left).toMatchObject({ docs: 0, pins: 0, topo: 0, ip: null });
    expect(Object.keys(left!.layout)).toEqual(["hw-999999"]);
  });
});
