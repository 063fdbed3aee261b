import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { auditActions } from "./support.ts";

let a: Actors;
const ids = { h1: 0, h2: 0, conn: 0, cu: 0, svc: 0, st: 0, net: 0 };
beforeAll(async () => {
  a = await createActors();
  const one = async (q: Promise<{ id: number }[]>) => (await q)[0]!.id;
  ids.h1 = await one(a.t.sql`insert into hardware (name, status, role) values ('pve-01', 'up', 'hypervisor') returning id`);
  ids.h2 = await one(a.t.sql`insert into hardware (name, status, status_override) values ('sw-01', 'up', 'maintenance') returning id`);
  ids.conn = await one(
    a.t.sql`insert into hardware_connections (source_hardware_id, target_hardware_id) values (${ids.h1}, ${ids.h2}) returning id`,
  );
  ids.cu = await one(
    a.t.sql`insert into compute_units (name, kind, hardware_id, status) values ('vm-web', 'vm', ${ids.h1}, 'running') returning id`,
  );
  ids.svc = await one(a.t.sql`insert into services (name, slug, compute_id) values ('nginx', 'nginx', ${ids.cu}) returning id`);
  ids.st = await one(a.t.sql`insert into storage (name, kind, hardware_id) values ('tank', 'pool', ${ids.h1}) returning id`);
  ids.net = await one(a.t.sql`insert into networks (name, cidr) values ('lan', '10.0.0.0/24') returning id`);
  await a.t.sql`insert into network_hardware_members (network_id, hardware_id) values (${ids.net}, ${ids.h1})`;
});
afterAll(async () => a.t.close());

const newTopology = async (name: string) => {
  const res = await a.req("POST", "topologies", a.editor, { name, description: "core" });
  expect(res.status).toBe(201);
  return res.json();
};

describe("topologies: happy", () => {
  it("creates, sets nodes, gets, lists, replaces, deletes", async () => {
    const t = await newTopology("Core");
    expect(t).toMatchObject({ name: "Core", description: "core", nodes: [] });
    const nodes = [
      { node_id: `hw-${ids.h1}`, x: 0, y: 0 },
      { node_id: `svc-${ids.svc}`, x: 100, y: 50 },
    ];
    const put = await a.req("PUT", `topologies/${t.id}/nodes`, a.editor, { nodes });
    expect(put.status).toBe(200);
    expect((await put.json()).nodes).toEqual(nodes);
    expect((await (await a.req("GET", `topologies/${t.id}`, a.viewer)).json()).nodes).toEqual(nodes);

    const list = await (await a.req("GET", "topologies?q=cor", a.viewer)).json();
    expect(list).toMatchObject({ total: 1, sort: "name" });
    expect(list.items[0].nodes).toHaveLength(2);

    const replaced = await (await a.req("PUT", `topologies/${t.id}`, a.editor, { name: "Core v2", nodes: [] })).json();
    expect(replaced).toMatchObject({ name: "Core v2", description: null });
    expect(replaced.nodes).toHaveLength(2);

    expect((await a.req("PUT", `topologies/${t.id}/nodes`, a.editor, { nodes: [] })).status).toBe(200);
    expect((await a.req("DELETE", `topologies/${t.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `topologies/${t.id}`, a.viewer)).status).toBe(404);
    expect(await auditActions(a, "topology")).toEqual([
      "topology.create",
      "topology.nodes.replace",
      "topology.update",
      "topology.nodes.replace",
      "topology.delete",
    ]);
  });

  it("exports its graph: current labels and statuses, and only the edges among its nodes", async () => {
    const t = await newTopology("Graph");
    const nodeIds = [`hw-${ids.h1}`, `hw-${ids.h2}`, `cu-${ids.cu}`, `svc-${ids.svc}`, `net-${ids.net}`];
    await a.req("PUT", `topologies/${t.id}/nodes`, a.editor, { nodes: nodeIds.map((node_id, i) => ({ node_id, x: i * 10, y: 5 })) });
    await a.t.sql`update hardware set name = 'pve-renamed' where id = ${ids.h1}`;
    const graph = await (await a.req("GET", `topologies/${t.id}/graph`, a.viewer)).json();
    expect(graph.topology).toEqual({ id: t.id, name: "Graph", description: "core" });
    expect(graph.missing).toEqual([]);
    const byId = Object.fromEntries(graph.nodes.map((n: { id: string }) => [n.id, n]));
    expect(byId[`hw-${ids.h1}`]).toEqual({
      id: `hw-${ids.h1}`,
      type: "hardware",
      label: "pve-renamed",
      ref_id: ids.h1,
      status: "up",
      subtitle: "hypervisor",
      position: { x: 0, y: 5 },
    });
    expect(byId[`hw-${ids.h2}`].status).toBe("maintenance");
    expect(byId[`cu-${ids.cu}`]).toMatchObject({ label: "vm-web", status: "running", subtitle: "vm" });
    const edges = graph.edges
      .map((e: { id: string; source: string; target: string; relation: string }) => `${e.id} ${e.source}->${e.target} ${e.relation}`)
      .sort();
    expect(edges).toEqual(
      [
        `e-cs-${ids.svc} cu-${ids.cu}->svc-${ids.svc} runs`,
        `e-hc-${ids.cu} hw-${ids.h1}->cu-${ids.cu} hosts`,
        `e-hh-${ids.conn} hw-${ids.h1}->hw-${ids.h2} connects_to`,
        `e-hn-${ids.net}-${ids.h1} hw-${ids.h1}->net-${ids.net} on_network`,
      ].sort(),
    );
    // The storage pool hangs off pve-01 but is not in this topology, so neither is its edge.
    expect(edges.some((e: string) => e.includes(`st-${ids.st}`))).toBe(false);

    const gone = await a.t.sql`insert into misc_items (name) values ('ups') returning id`;
    await a.req("PUT", `topologies/${t.id}/nodes`, a.editor, { nodes: [{ node_id: `misc-${gone[0]!.id}` }, { node_id: `hw-${ids.h2}` }] });
    await a.t.sql`delete from misc_items where id = ${gone[0]!.id}`;
    const after = await (await a.req("GET", `topologies/${t.id}/graph`, a.viewer)).json();
    expect(after.missing).toEqual([`misc-${gone[0]!.id}`]);
    expect(after.nodes.map((n: { id: string }) => n.id)).toEqual([`hw-${ids.h2}`]);
  });
});

describe("topologies: errors", () => {
  it("404 names the topology; 422 for bad, unknown and repeated node ids, nothing changed", async () => {
    expect(await (await a.req("GET", "topologies/9999", a.viewer)).json()).toEqual({
      error_code: "RESOURCE_NOT_FOUND",
      detail: "Topology 9999 was not found.",
    });
    expect((await a.req("GET", "topologies/9999/graph", a.viewer)).status).toBe(404);
    expect((await a.req("PUT", "topologies/9999/nodes", a.editor, { nodes: [] })).status).toBe(404);
    const t = await newTopology("Errors");
    await a.req("PUT", `topologies/${t.id}/nodes`, a.editor, { nodes: [{ node_id: `hw-${ids.h1}` }] });

    const bad = await a.req("PUT", `topologies/${t.id}/nodes`, a.editor, { nodes: [{ node_id: "server-1" }, { node_id: "hw-x" }] });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).fields).sort()).toEqual(["nodes.0.node_id", "nodes.1.node_id"]);
    const unknown = await a.req("PUT", `topologies/${t.id}/nodes`, a.editor, {
      nodes: [{ node_id: `hw-${ids.h2}` }, { node_id: "svc-99999" }],
    });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).fields).toEqual({ "nodes.1.node_id": "svc-99999 is not in the inventory." });
    const twice = await a.req("PUT", `topologies/${t.id}/nodes`, a.editor, {
      nodes: [{ node_id: `hw-${ids.h2}` }, { node_id: `hw-${ids.h2}` }],
    });
    expect(twice.status).toBe(422);
    expect((await (await a.req("GET", `topologies/${t.id}`, a.viewer)).json()).nodes).toEqual([
      { node_id: `hw-${ids.h1}`, x: null, y: null },
    ]);
    expect((await a.req("POST", "topologies", a.editor, { name: "" })).status).toBe(422);
  });
});

describe("topologies: security", () => {
  it("anonymous 401, viewer cannot write, editor cannot delete", async () => {
    expect((await a.req("GET", "topologies")).status).toBe(401);
    expect((await a.req("POST", "topologies", a.viewer, { name: "x" })).status).toBe(403);
    const t = await newTopology("Keep");
    expect((await a.req("PUT", `topologies/${t.id}/nodes`, a.viewer, { nodes: [] })).status).toBe(403);
    expect((await a.req("PUT", `topologies/${t.id}`, a.viewer, { name: "y" })).status).toBe(403);
    expect((await a.req("DELETE", `topologies/${t.id}`, a.editor)).status).toBe(403);
  });
});
