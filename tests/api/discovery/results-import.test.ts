// batch-import and import-as-network: chosen results of a job into the inventory in one audited
// transaction (new nodes, updated matches, conflicts listed, the rest skipped), the network variant with
// its placeholder network, memberships and map placements, and the undo of both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDiscoveryActors, type DiscoveryActors } from "./support.ts";

let a: DiscoveryActors;
beforeAll(async () => {
  a = await createDiscoveryActors();
});
afterAll(async () => {
  await a.t.close();
});

describe("batch-import", () => {
  it("creates new nodes, updates matched ones, lists conflicts and skips the rest, undoably", async () => {
    const known = await a.node("imp-known", { ip: "127.0.10.2" });
    const job = await a.job({ status: "completed", target_cidr: "127.0.10.0/24" });
    const other = await a.job({ status: "completed" });
    const fresh = await a.result(job, { ip_address: "127.0.10.1", hostname: "imp-new", vendor: "Acme" });
    const matched = await a.result(job, { ip_address: "127.0.10.2", mac_address: "02:00:00:00:10:02", state: "matched", matched_entity_type: "hardware", matched_entity_id: known });
    const conflict = await a.result(job, { ip_address: "127.0.10.3", mac_address: "02:00:00:00:10:03", state: "conflict", matched_entity_type: "hardware", matched_entity_id: known });
    await a.t.sql`update scan_results set conflicts = ${a.t.sql.json([{ field: "ip_address", discovered: "127.0.10.3", existing: "127.0.10.2", entity_type: "hardware", entity_id: known }])} where id = ${conflict}`;
    const elsewhere = await a.result(other, { ip_address: "127.0.10.4" });
    const rejected = await a.result(job, { ip_address: "127.0.10.5", merge_status: "rejected" });

    const res = await a.req("POST", `discovery/jobs/${job}/batch-import`, a.admin, {
      items: [{ scan_result_id: fresh, overrides: { name: "imported-one", role: "server" } }, { scan_result_id: matched }, { scan_result_id: conflict }, { scan_result_id: elsewhere }, { scan_result_id: rejected }],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    const [node] = await a.t.sql`select id, name, role, vendor, ip_address from hardware where name = 'imported-one'`;
    expect(node).toMatchObject({ role: "server", vendor: "Acme", ip_address: "127.0.10.1" });
    expect(body.created).toEqual([{ id: node!.id, ip: "127.0.10.1", position: null, scan_result_id: fresh }]);
    expect(body.updated).toEqual([{ id: known, ip: "127.0.10.2", position: null, scan_result_id: matched }]);
    expect(body.conflicts).toEqual([{ scan_result_id: conflict, ip: "127.0.10.3", mac: "02:00:00:00:10:03", reason: `ip_address 127.0.10.3 differs from hardware ${known} (127.0.10.2)` }]);
    expect(body.skipped).toEqual([elsewhere, rejected]);
    const [k] = await a.t.sql`select mac_address from hardware where id = ${known}`;
    expect(k!.mac_address).toBe("02:00:00:00:10:02");

    const undo = await a.req("POST", `discovery/merges/${body.audit_id}/undo`, a.admin);
    expect(undo.status, await undo.clone().text()).toBe(200);
    expect(await a.t.sql`select id from hardware where name = 'imported-one'`).toHaveLength(0);
    const [k2] = await a.t.sql`select mac_address from hardware where id = ${known}`;
    expect(k2!.mac_address).toBeNull();
    const statuses = await a.t.sql`select id, merge_status from scan_results where scan_job_id = ${job} order by id`;
    expect(statuses.map((r) => r.merge_status)).toEqual(["pending", "pending", "pending", "rejected"]);
  });

  it("answers 404 for an unknown job and 422 naming the item for a bad override, changing nothing", async () => {
    expect((await a.req("POST", "discovery/jobs/424242/batch-import", a.admin, { items: [{ scan_result_id: 1 }] })).status).toBe(404);
    const job = await a.job({ status: "completed" });
    const r = await a.result(job, { ip_address: "127.0.11.1" });
    const bad = await a.req("POST", `discovery/jobs/${job}/batch-import`, a.admin, { items: [{ scan_result_id: r, overrides: { name: "x".repeat(300) } }] });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).fields)).toEqual(["items.0.overrides.name"]);
    const unknown = await a.req("POST", `discovery/jobs/${job}/batch-import`, a.admin, { items: [{ scan_result_id: r, position: 1 }] });
    expect(unknown.status).toBe(422);
    const [row] = await a.t.sql`select merge_status from scan_results where id = ${r}`;
    expect(row!.merge_status).toBe("pending");
  });
});

describe("import-as-network", () => {
  it("joins the nodes to a placeholder network for the subnet, places new ones on the map, and undoes all of it", async () => {
    const [map] = await a.t.sql<{ id: number }[]>`insert into maps (name) values ('lab map') returning id`;
    const job = await a.job({ status: "completed", target_cidr: "127.0.12.0/24" });
    const r1 = await a.result(job, { ip_address: "127.0.12.1", hostname: "net-a" });
    const r2 = await a.result(job, { ip_address: "127.0.12.2", hostname: "net-b" });
    const res = await a.req("POST", `discovery/jobs/${job}/import-as-network`, a.admin, { items: [{ scan_result_id: r1 }, { scan_result_id: r2 }], map_id: map!.id });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    expect(body.placeholders).toHaveLength(1);
    const net = body.placeholders[0];
    expect(net.subnet).toBe("127.0.12.0/24");
    expect(body.edges_created).toBe(2);
    expect(body.created.map((c: any) => c.position)).toEqual([{ x: 0, y: 0 }, { x: 160, y: 0 }]);
    const members = await a.t.sql`select h.name, m.ip_address from network_hardware_members m join hardware h on h.id = m.hardware_id where m.network_id = ${net.id} order by h.name`;
    expect(members).toEqual([{ name: "net-a", ip_address: "127.0.12.1" }, { name: "net-b", ip_address: "127.0.12.2" }]);
    expect(await a.t.sql`select entity_id from map_entities where map_id = ${map!.id}`).toHaveLength(2);

    // A second import into the same subnet reuses the network.
    const r3 = await a.result(job, { ip_address: "127.0.12.3", hostname: "net-c" });
    const second = await (await a.req("POST", `discovery/jobs/${job}/import-as-network`, a.admin, { items: [{ scan_result_id: r3 }] })).json();
    expect(second).toMatchObject({ placeholders: [], edges_created: 1 });
    expect((await a.req("POST", `discovery/merges/${second.audit_id}/undo`, a.admin)).status).toBe(200);

    const undo = await a.req("POST", `discovery/merges/${body.audit_id}/undo`, a.admin);
    expect(undo.status, await undo.clone().text()).toBe(200);
    expect(await a.t.sql`select id from networks where id = ${net.id}`).toHaveLength(0);
    expect(await a.t.sql`select id from hardware where name like 'net-_'`).toHaveLength(0);
    expect(await a.t.sql`select entity_id from map_entities where map_id = ${map!.id}`).toHaveLength(0);
  });

  it("answers 404 Map not found for an unknown map and changes nothing", async () => {
    const job = await a.job({ status: "completed", target_cidr: "127.0.13.0/24" });
    const r = await a.result(job, { ip_address: "127.0.13.1", hostname: "nomap" });
    const res = await a.req("POST", `discovery/jobs/${job}/import-as-network`, a.admin, { items: [{ scan_result_id: r }], map_id: 999_999 });
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe("Map not found");
    expect(await a.t.sql`select id from hardware where name = 'nomap'`).toHaveLength(0);
    expect(await a.t.sql`select id from networks where cidr = '127.0.13.0/24'`).toHaveLength(0);
  });
});
