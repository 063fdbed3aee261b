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
    const matched = await a.result(job, {
      ip_address: "127.0.10.2",
      mac_address: "02:00:00:00:10:02",
      state: "matched",
      matched_entity_type: "hardware",
      matched_entity_id: known,
    });
    const conflict = await a.result(job, {
      ip_address: "127.0.10.3",
      mac_address: "02:00:00:00:10:03",
      state: "conflict",
      matched_entity_type: "hardware",
      matched_entity_id: known,
    });
    await a.t
      .sql`update scan_results set conflicts = ${a.t.sql.json([{ field: "ip_address", discovered: "127.0.10.3", existing: "127.0.10.2", entity_type: "hardware", entity_id: known }])} where id = ${conflict}`;
    const elsewhere = await a.result(other, { ip_address: "127.0.10.4" });
    const rejected = await a.result(job, { ip_address: "127.0.10.5", merge_status: "rejected" });

    const res = await a.req("POST", `discovery/jobs/${job}/batch-import`, a.admin, {
      items: [
        { scan_result_id: fresh, overrides: { name: "imported-one", role: "server" } },
        { scan_result_id: matched },
        { scan_result_id: conflict },
        { scan_result_id: elsewhere },
        { scan_result_id: rejected },
      ],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    const [node] = await a.t.sql`select id, name, role, vendor, ip_address from hardware where name = 'imported-one'`;
    expect(node).toMatchObject({ role: "server", vendor: "Acme", ip_address: "127.0.10.1" });
    expect(body.created).toEqual([{ id: node!.id, ip: "127.0.10.1", position: null, scan_result_id: fresh }]);
    expect(body.updated).toEqual([{ id: known, ip: "127.0.10.2", position: null, scan_result_id: matched }]);
    expect(body.conflicts).toEqual([
      {
        scan_result_id: conflict,
        ip: "127.0.10.3",
        mac: "02:00:00:00:10:03",
        reason: `ip_address 127.0.10.3 differs from hardware ${known} (127.0.10.2)`,
      },
    ]);
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
    const bad = await a.req("POST", `discovery/jobs/${job}/batch-import`, a.admin, {
      items: [{ scan_result_id: r, overrides: { name: "x".repeat(300) } }],
    });
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
    const res = await a.req("POST", `discovery/jobs/${job}/import-as-network`, a.admin, {
      items: [{ scan_result_id: r1 }, { scan_result_id: r2 }],
      map_id: map!.id,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    expect(body.placeholders).toHaveLength(1);
    const net = body.placeholders[0];
    expect(net.subnet).toBe("127.0.12.0/24");
    expect(body.edges_created).toBe(2);
    expect(body.created.map((c: any) => c.position)).toEqual([
      { x: 0, y: 0 },
      { x: 160, y: 0 },
    ]);
    const members = await a.t
      .sql`select h.name, m.ip_address from network_hardware_members m join hardware h on h.id = m.hardware_id where m.network_id = ${net.id} order by h.name`;
    expect(members).toEqual([
      { name: "net-a", ip_address: "127.0.12.1" },
      { name: "net-b", ip_address: "127.0.12.2" },
    ]);
    expect(await a.t.sql`select entity_id from map_entities where map_id = ${map!.id}`).toHaveLength(2);

    // A second import into the same subnet reuses the network.
    const r3 = await a.result(job, { ip_address: "127.0.12.3", hostname: "net-c" });
    const second = await (
      await a.req("POST", `discovery/jobs/${job}/import-as-network`, a.admin, { items: [{ scan_result_id: r3 }] })
    ).json();
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
    const res = await a.req("POST", `discovery/jobs/${job}/import-as-network`, a.admin, {
      items: [{ scan_result_id: r }],
      map_id: 999_999,
    });
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe("Map not found: there is no map 999999.");
    expect(await a.t.sql`select id from hardware where name = 'nomap'`).toHaveLength(0);
    expect(await a.t.sql`select id from networks where cidr = '127.0.13.0/24'`).toHaveLength(0);
  });
});

describe("enhanced-bulk-merge", () => {
  it("accepts with assignments, a new cluster, a new network and services per open port, and undoes all of it", async () => {
    const job = await a.job({ status: "completed", target_cidr: "127.0.14.0/24" });
    const r1 = await a.result(job, {
      ip_address: "127.0.14.1",
      hostname: "enh-a",
      open_ports: [
        { port: 22, protocol: "tcp", service: "ssh" },
        { port: 443, protocol: "tcp" },
      ],
    });
    const r2 = await a.result(job, { ip_address: "127.0.14.2", hostname: "enh-b" });
    const conflict = await a.result(job, { ip_address: "127.0.14.3", state: "conflict" });
    await a.t.sql`insert into environments (name) values ('enh-env') on conflict do nothing`;
    const res = await a.req("POST", "discovery/results/enhanced-bulk-merge", a.admin, {
      result_ids: [r1, r2, conflict],
      cluster: { name: "enh-cluster", environment: "enh-env", location: "rack 7" },
      network: { name: "enh-net", cidr: "127.0.14.0/24", gateway: "127.0.14.254" },
      assignments: [
        { result_id: r1, name: "enh-renamed", role: "nas", vendor: "Synology" },
        { result_id: 999_999, role: "x" },
      ],
      create_services: true,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ merged: 2, skipped: 1, created: { clusters: 1, networks: 1, services: 2 } });
    expect(body.errors).toEqual(["Assignment for result 999999 ignored: it is not among the merged results."]);
    const nodes = await a.t
      .sql`select id, name, role, vendor, location from hardware where id in ${a.t.sql(body.hardware_ids)} order by name`;
    expect(nodes.map((n) => [n.name, n.role, n.vendor, n.location])).toEqual([
      ["enh-b", null, null, "rack 7"],
      ["enh-renamed", "nas", "Synology", "rack 7"],
    ]);
    const [cluster] = await a.t
      .sql`select c.id, e.name as env, (select count(*)::int from cluster_members m where m.cluster_id = c.id) as members
      from hardware_clusters c left join environments e on e.id = c.environment_id where c.name = 'enh-cluster'`;
    expect(cluster).toMatchObject({ env: "enh-env", members: 2 });
    const svc = await a.t.sql`select name, ports from services where hardware_id in ${a.t.sql(body.hardware_ids)} order by name`;
    expect(svc.map((x) => x.name)).toEqual(["port 443 on enh-renamed", "ssh on enh-renamed"]);
    const [net] = await a.t
      .sql`select id, (select count(*)::int from network_hardware_members m where m.network_id = n.id) as members from networks n where name = 'enh-net'`;
    expect(net!.members).toBe(2);

    const taken = await a.req("POST", "discovery/results/enhanced-bulk-merge", a.admin, {
      result_ids: [conflict],
      cluster: { name: "enh-cluster" },
    });
    expect(await taken.json()).toMatchObject({ merged: 0, skipped: 1 });

    const undo = await a.req("POST", `discovery/merges/${body.audit_id}/undo`, a.admin);
    expect(undo.status, await undo.clone().text()).toBe(200);
    expect(await a.t.sql`select id from hardware where id in ${a.t.sql(body.hardware_ids)}`).toHaveLength(0);
    expect(await a.t.sql`select id from hardware_clusters where name = 'enh-cluster'`).toHaveLength(0);
    expect(await a.t.sql`select id from networks where name = 'enh-net'`).toHaveLength(0);
    expect(await a.t.sql`select id from services where name like '% on enh-renamed'`).toHaveLength(0);
  });

  it("refuses a taken cluster name with 409 and a gateway outside the network with 422, merging nothing", async () => {
    await a.t.sql`insert into hardware_clusters (name) values ('enh-taken')`;
    const job = await a.job({ status: "completed" });
    const r = await a.result(job, { ip_address: "127.0.15.1", hostname: "enh-refused" });
    const taken = await a.req("POST", "discovery/results/enhanced-bulk-merge", a.admin, {
      result_ids: [r],
      cluster: { name: "enh-taken" },
    });
    expect(taken.status).toBe(409);
    const gw = await a.req("POST", "discovery/results/enhanced-bulk-merge", a.admin, {
      result_ids: [r],
      network: { cidr: "127.0.15.0/24", gateway: "127.0.16.1" },
    });
    expect(gw.status).toBe(422);
    expect((await gw.json()).fields).toHaveProperty("network.gateway");
    expect(await a.t.sql`select id from hardware where name = 'enh-refused'`).toHaveLength(0);
    const [row] = await a.t.sql`select merge_status from scan_results where id = ${r}`;
    expect(row!.merge_status).toBe("pending");
  });
});
