// Discovery results: recording findings matched against the inventory (MAC, then address, then hostname,
// with conflicts and the OUI vendor), the result lists, suggest, merge / bulk-merge into the inventory
// and the undo of a merge through its audit entry.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyFinding, type HostFinding } from "../../../shared/domain/discovery/finding.ts";
import { cryptoRandom } from "../../../shared/clock.ts";
import { recordFindings } from "../../../shared/verbs/discovery/results/record-findings.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { eventually } from "../agents/support.ts";
import { createDiscoveryActors, type DiscoveryActors } from "./support.ts";

let a: DiscoveryActors;
beforeAll(async () => {
  a = await createDiscoveryActors();
});
afterAll(async () => {
  await a.t.close();
});

const finding = (ip: string, f: Partial<HostFinding> = {}): HostFinding => ({ ...emptyFinding(ip), sources: ["icmp"], ...f });

async function record(jobId: number, findings: HostFinding[]) {
  const ctx = systemContext({ db: a.t.runtime.database.provider.lease().db, clock: a.clock, random: cryptoRandom });
  return recordFindings({ ctx, input: { job_id: jobId, findings } });
}

async function resultsOf(jobId: number): Promise<Record<string, any>[]> {
  const res = await a.req("GET", `discovery/jobs/${jobId}/results?limit=100&sort=ip_address&direction=asc`, a.viewer);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()).items;
}

describe("recording findings", () => {
  it("matches by MAC, then address, then hostname, flags conflicts, fills the vendor from the OUI and counts on the job", async () => {
    const hwMac = await a.node("rec-mac", { ip: "127.0.1.10", mac: "AA:BB:CC:00:00:01" });
    const hwIp = await a.node("rec-ip", { ip: "127.0.1.11", mac: "aa:bb:cc:00:00:02" });
    const [cu] = await a.t.sql<
      { id: number }[]
    >`insert into compute_units (name, kind, ip_address) values ('rec-vm', 'vm', '127.0.1.12') returning id`;
    const hwName = await a.node("rec-nas01");
    await a.t.sql`insert into kb_oui (prefix, vendor) values ('DE:AD:BE', 'Deadbeef Networks') on conflict do nothing`;
    const job = await a.job({ status: "running" });
    const events = await a.listen("discovery");

    const out = await record(job, [
      finding("127.0.1.10", {
        mac_address: "aa-bb-cc-00-00-01",
        open_ports: [{ port: 22, protocol: "tcp", banner: "SSH-2.0-OpenSSH_9.6" }],
      }),
      finding("127.0.1.11", { mac_address: "aa:bb:cc:99:99:99" }),
      finding("127.0.1.12"),
      finding("127.0.1.13", { hostname: "REC-NAS01.lan" }),
      finding("127.0.1.14", { mac_address: "de:ad:be:00:00:01" }),
      finding("127.0.1.15", { mac_address: "aa:bb:cc:00:00:01", vendor: "Named By Nmap" }),
    ]);
    expect(out).toEqual({ recorded: 6, new: 1, matched: 3, conflict: 2 });

    const rows = await resultsOf(job);
    const at = (ip: string) => rows.find((r) => r.ip_address === ip)!;
    expect(at("127.0.1.10")).toMatchObject({
      state: "matched",
      matched_by: "mac",
      matched_entity_type: "hardware",
      matched_entity_id: hwMac,
      mac_address: "aa:bb:cc:00:00:01",
      merge_status: "pending",
    });
    expect(at("127.0.1.10").open_ports).toEqual([{ port: 22, protocol: "tcp", banner: "SSH-2.0-OpenSSH_9.6" }]);
    expect(JSON.parse(at("127.0.1.10").open_ports_json)).toEqual(at("127.0.1.10").open_ports);
    expect(at("127.0.1.11")).toMatchObject({ state: "conflict", matched_by: "ip", matched_entity_id: hwIp });
    expect(at("127.0.1.11").conflicts).toEqual([
      { field: "mac_address", discovered: "aa:bb:cc:99:99:99", existing: "aa:bb:cc:00:00:02", entity_type: "hardware", entity_id: hwIp },
    ]);
    expect(at("127.0.1.12")).toMatchObject({
      state: "matched",
      matched_by: "ip",
      matched_entity_type: "compute_unit",
      matched_entity_id: cu!.id,
    });
    expect(at("127.0.1.13")).toMatchObject({ state: "matched", matched_by: "hostname", matched_entity_id: hwName });
    expect(at("127.0.1.14")).toMatchObject({ state: "new", vendor: "Deadbeef Networks", matched_entity_id: null });
    expect(at("127.0.1.15")).toMatchObject({ state: "conflict", matched_by: "mac", vendor: "Named By Nmap" });
    expect(JSON.parse(at("127.0.1.15").conflicts_json)).toEqual([
      { field: "ip_address", discovered: "127.0.1.15", existing: "127.0.1.10", entity_type: "hardware", entity_id: hwMac },
    ]);

    const [counters] = await a.t.sql`select hosts_found, hosts_new, hosts_updated, hosts_conflict from scan_jobs where id = ${job}`;
    expect(counters).toEqual({ hosts_found: 6, hosts_new: 1, hosts_updated: 3, hosts_conflict: 2 });
    await eventually(() => events.payloads.some((p) => p.type === "results" && p.job_id === job));
    expect(events.payloads.find((p) => p.type === "results")).toMatchObject({
      job_id: job,
      count: 6,
      addresses: ["127.0.1.10", "127.0.1.11", "127.0.1.12", "127.0.1.13", "127.0.1.14", "127.0.1.15"],
    });
    await events.stop();
  });

  it("updates the pending result of a host reported again in the job, uniting ports and sources, and leaves a reviewed one alone", async () => {
    const hw = await a.node("again-mac", { ip: "127.0.1.50", mac: "02:00:00:00:01:50" });
    const job = await a.job({ status: "running" });
    await record(job, [finding("127.0.1.51", { open_ports: [{ port: 22, protocol: "tcp" }] }), finding("127.0.1.52")]);
    // The MAC arrives with a second source: the host now matches the node by MAC (a conflict: other address).
    const again = await record(job, [
      finding("127.0.1.51", { mac_address: "02:00:00:00:01:50", sources: ["arp"], open_ports: [{ port: 80, protocol: "tcp" }] }),
    ]);
    expect(again).toEqual({ recorded: 1, new: 0, matched: 0, conflict: 1 });
    const rows = await resultsOf(job);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      ip_address: "127.0.1.51",
      mac_address: "02:00:00:00:01:50",
      state: "conflict",
      matched_entity_id: hw,
      matched_by: "mac",
    });
    expect(rows[0]!.open_ports.map((p: any) => p.port)).toEqual([22, 80]);
    expect([...rows[0]!.sources].sort()).toEqual(["arp", "icmp"]);
    const [counters] = await a.t.sql`select hosts_found, hosts_new, hosts_updated, hosts_conflict from scan_jobs where id = ${job}`;
    expect(counters).toEqual({ hosts_found: 2, hosts_new: 1, hosts_updated: 0, hosts_conflict: 1 });

    await a.t.sql`update scan_results set merge_status = 'rejected' where scan_job_id = ${job} and ip_address = '127.0.1.52'`;
    expect(await record(job, [finding("127.0.1.52", { hostname: "late" })])).toEqual({ recorded: 0, new: 0, matched: 0, conflict: 0 });
    expect((await resultsOf(job))[1]).toMatchObject({ hostname: null, merge_status: "rejected" });
  });

  it("drops findings whose address is not one and bounds what sources say", async () => {
    const job = await a.job({ status: "running" });
    const out = await record(job, [
      finding("not-an-ip"),
      finding("127.0.1.0/24"),
      finding("127.0.1.60", {
        hostname: "h".repeat(400),
        os_accuracy: 250,
        open_ports: [
          { port: 0, protocol: "tcp" },
          { port: 70000, protocol: "tcp" },
          { port: 22, protocol: "tcp", banner: "b".repeat(5000) },
          { port: 22, protocol: "tcp" },
        ],
      }),
    ]);
    expect(out.recorded).toBe(1);
    const [row] = await resultsOf(job);
    expect(row!.hostname).toHaveLength(255);
    expect(row!.os_accuracy).toBe(100);
    expect(row!.open_ports).toEqual([{ port: 22, protocol: "tcp" }]);
  });

  it("answers 404 for an unknown job and records nothing", async () => {
    await expect(record(999_999, [finding("127.0.1.99")])).rejects.toMatchObject({ status: 404 });
    const [n] = await a.t.sql`select count(*)::int as n from scan_results where ip_address = '127.0.1.99'`;
    expect(n!.n).toBe(0);
  });
});

describe("result lists and suggest", () => {
  it("filters by merge status, job and agent, and infers roles with_inference", async () => {
    const job = await a.job({ status: "completed" });
    const agent = await a.agent({ status: "active" });
    await a.t.sql`insert into scan_results (scan_job_id, ip_address, hostname, open_ports, state, discovery_agent_id, merge_status)
      values (${job}, '127.0.2.1', 'pve1', ${a.t.sql.json([
        { port: 8006, protocol: "tcp" },
        { port: 22, protocol: "tcp" },
      ])}, 'new', ${agent}, 'pending'),
             (${job}, '127.0.2.2', null, ${a.t.sql.json([{ port: 9100, protocol: "tcp" }])}, 'new', null, 'rejected')`;
    const pending = await (await a.req("GET", `discovery/results?job_id=${job}`, a.viewer)).json();
    expect(pending.items.map((r: any) => r.ip_address)).toEqual(["127.0.2.1"]);
    const all = await (await a.req("GET", `discovery/results?job_id=${job}&status=all`, a.viewer)).json();
    expect(all.total).toBe(2);
    const byAgent = await (await a.req("GET", `discovery/results?agent_id=${agent}&status=all`, a.viewer)).json();
    expect(byAgent.items.map((r: any) => r.ip_address)).toEqual(["127.0.2.1"]);

    const inferred = await (
      await a.req("GET", `discovery/jobs/${job}/results?with_inference=true&sort=ip_address&direction=asc`, a.viewer)
    ).json();
    expect(inferred.items[0]).toMatchObject({ inferred_role: "hypervisor", is_new: true, exists_in_hardware: false });
    expect(inferred.items[1]).toMatchObject({ inferred_role: "printer", inferred_icon_slug: "printer" });

    const ids = inferred.items.map((r: any) => r.id);
    // A knowledge-base hostname pattern wins over the port guess.
    await a.t.sql`insert into kb_hostnames (pattern, vendor, device_type) values ('PVE*', 'Proxmox Server Solutions', 'server')`;
    const byKb = await (
      await a.req("GET", `discovery/jobs/${job}/results?with_inference=true&sort=ip_address&direction=asc`, a.viewer)
    ).json();
    expect(byKb.items[0]).toMatchObject({ inferred_role: "server", inferred_vendor: "Proxmox Server Solutions" });
    expect(byKb.items[0].signals_used).toContain("kb_hostname");
    await a.t.sql`delete from kb_hostnames where pattern = 'PVE*'`;
    expect((await a.req("POST", "discovery/results/suggest", a.viewer, { result_ids: ids })).status).toBe(403);
    const res = await a.req("POST", "discovery/results/suggest", a.admin, { result_ids: ids });
    expect(res.status).toBe(200);
    const { suggestions } = await res.json();
    expect(suggestions[0]).toMatchObject({ name: "pve1", role: "hypervisor", action: "create" });
    expect(suggestions[1]).toMatchObject({ name: "host-127-0-2-2", role: "printer" });
  });

  it("refuses bad queries with 422 naming the field, and an unknown job with 404", async () => {
    const bad = await a.req("GET", "discovery/results?status=maybe", a.viewer);
    expect(bad.status).toBe(422);
    expect((await bad.json()).fields).toHaveProperty("status");
    expect((await a.req("GET", "discovery/jobs/987654/results", a.viewer)).status).toBe(404);
    const noIds = await a.req("POST", "discovery/results/suggest", a.admin, { result_ids: [] });
    expect(noIds.status).toBe(422);
  });
});

describe("merging and undoing", () => {
  it("accepts a new result as a hardware node, audited with its undo; undo removes it once, a second undo is 409", async () => {
    const job = await a.job({ status: "completed" });
    await record(job, [
      finding("127.0.3.1", {
        hostname: "merge-new.lan",
        mac_address: "02:00:00:00:03:01",
        vendor: "Acme",
        open_ports: [{ port: 22, protocol: "tcp" }],
      }),
    ]);
    const [result] = await resultsOf(job);
    const inventory = await a.listen("inventory");

    const res = await a.req("POST", `discovery/results/${result!.id}/merge`, a.admin, { action: "accept", overrides: { role: "server" } });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ entity_type: "hardware", ports: [{ port: 22, protocol: "tcp" }] });
    expect(body.audit_id).toEqual(expect.any(Number));
    const [hw] = await a.t.sql`select name, ip_address, mac_address, vendor, role from hardware where id = ${body.entity_id}`;
    expect(hw).toEqual({ name: "merge-new", ip_address: "127.0.3.1", mac_address: "02:00:00:00:03:01", vendor: "Acme", role: "server" });
    await eventually(() => inventory.payloads.some((p) => p.action === "create" && p.id === body.entity_id));
    expect(inventory.payloads).toContainEqual({ entity: "hardware", action: "create", id: body.entity_id });
    const [merged] = await resultsOf(job);
    expect(merged).toMatchObject({
      merge_status: "merged",
      matched_entity_id: body.entity_id,
      reviewed_by: "admin@example.com",
      merge_audit_id: body.audit_id,
    });
    const [entry] = await a.t.sql`select action, diff from audit_log where id = ${body.audit_id}`;
    expect(entry!.action).toBe("discovery.merge.accept");
    expect(entry!.diff.undo.created).toEqual([{ table: "hardware", id: body.entity_id, version: 1 }]);

    expect((await a.req("POST", `discovery/results/${result!.id}/merge`, a.admin, { action: "reject" })).status).toBe(409);

    const undo = await a.req("POST", `discovery/merges/${body.audit_id}/undo`, a.admin);
    expect(undo.status, await undo.clone().text()).toBe(200);
    const undone = await undo.json();
    expect(undone).toMatchObject({ undone: true, rows_deleted: 1, results_reset: 1, undo_audit_id: expect.any(Number) });
    const [undoEntry] = await a.t.sql`select action, entity_id from audit_log where id = ${undone.undo_audit_id}`;
    expect(undoEntry).toEqual({ action: "discovery.merge.undo", entity_id: String(body.audit_id) });
    expect(await a.t.sql`select id from hardware where id = ${body.entity_id}`).toHaveLength(0);
    const [back] = await resultsOf(job);
    expect(back).toMatchObject({ merge_status: "pending", matched_entity_id: null, reviewed_by: null, merge_audit_id: null });

    const again = await a.req("POST", `discovery/merges/${body.audit_id}/undo`, a.admin);
    expect(again.status).toBe(409);
    await inventory.stop();
  });

  it("accepts a matched result onto its node, and refuses the undo once the node changed since", async () => {
    const hw = await a.node("merge-matched", { ip: "127.0.3.10", mac: null });
    const job = await a.job({ status: "completed" });
    await record(job, [finding("127.0.3.10", { mac_address: "02:00:00:00:03:10", vendor: "Acme" })]);
    const [result] = await resultsOf(job);
    expect(result).toMatchObject({ state: "matched", matched_entity_id: hw });

    const res = await a.req("POST", `discovery/results/${result!.id}/merge`, a.admin, { action: "accept", overrides: { model: "X1" } });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ updated: true, entity_type: "hardware", entity_id: hw });
    const [after] = await a.t.sql`select mac_address, vendor, model, version from hardware where id = ${hw}`;
    expect(after).toEqual({ mac_address: "02:00:00:00:03:10", vendor: "Acme", model: "X1", version: 2 });

    // Someone edits the node through the inventory API: the merge can no longer be undone as it was.
    const patch = await a.req("PATCH", `hardware/${hw}`, a.admin, { notes: "edited" });
    expect(patch.status, await patch.clone().text()).toBe(200);
    const undo = await a.req("POST", `discovery/merges/${body.audit_id}/undo`, a.admin);
    expect(undo.status).toBe(409);
    expect((await undo.json()).detail).toContain(`Hardware node ${hw}`);
    const [kept] = await a.t.sql`select mac_address, model from hardware where id = ${hw}`;
    expect(kept).toEqual({ mac_address: "02:00:00:00:03:10", model: "X1" });
    expect((await resultsOf(job))[0]).toMatchObject({ merge_status: "accepted" });
  });

  it("cuts what a scan named to the inventory's limits when it makes a node", async () => {
    const job = await a.job({ status: "completed" });
    await record(job, [finding("127.0.3.30", { vendor: "V".repeat(150), hostname: "long-vendor" })]);
    const [result] = await resultsOf(job);
    const res = await a.req("POST", `discovery/results/${result!.id}/merge`, a.admin, { action: "accept" });
    expect(res.status, await res.clone().text()).toBe(200);
    const [hw] = await a.t.sql`select vendor from hardware where id = ${(await res.json()).entity_id}`;
    expect(hw!.vendor).toBe("V".repeat(100));
  });

  it("undoes an update by restoring the previous values", async () => {
    const hw = await a.node("merge-restore", { ip: "127.0.3.20" });
    const job = await a.job({ status: "completed" });
    await record(job, [finding("127.0.3.20", { mac_address: "02:00:00:00:03:20" })]);
    const [result] = await resultsOf(job);
    const body = await (await a.req("POST", `discovery/results/${result!.id}/merge`, a.admin, { action: "accept" })).json();
    const undo = await a.req("POST", `discovery/merges/${body.audit_id}/undo`, a.admin);
    expect(undo.status, await undo.clone().text()).toBe(200);
    const [restored] = await a.t.sql`select mac_address, ip_address from hardware where id = ${hw}`;
    expect(restored).toEqual({ mac_address: null, ip_address: "127.0.3.20" });
  });

  it("bulk-merges in one audited transaction, skipping conflicts and reviewed results, and undoes it as a whole", async () => {
    const hw = await a.node("bulk-known", { ip: "127.0.4.1", mac: "02:00:00:00:04:01" });
    const job = await a.job({ status: "completed" });
    await record(job, [
      finding("127.0.4.1", { mac_address: "02:00:00:00:04:01", vendor: "Known" }),
      finding("127.0.4.2", { hostname: "bulk-a" }),
      finding("127.0.4.3", { hostname: "bulk-b" }),
      finding("127.0.4.4", { mac_address: "02:00:00:00:04:01" }),
    ]);
    const rows = await resultsOf(job);
    expect(rows.map((r) => r.state)).toEqual(["matched", "new", "new", "conflict"]);
    const before = await a.t.sql`select count(*)::int as n from audit_log`;

    const res = await a.req("POST", "discovery/results/bulk-merge", a.admin, {
      result_ids: [...rows.map((r) => r.id), 999_999],
      action: "accept",
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ accepted: 3, rejected: 0, skipped: 2 });
    const after = await a.t.sql`select count(*)::int as n from audit_log`;
    expect(after[0]!.n - before[0]!.n).toBe(1);
    const created = await a.t.sql`select name, ip_address from hardware where name like 'bulk-_' order by name`;
    expect(created).toEqual([
      { name: "bulk-a", ip_address: "127.0.4.2" },
      { name: "bulk-b", ip_address: "127.0.4.3" },
    ]);
    const [known] = await a.t.sql`select vendor from hardware where id = ${hw}`;
    expect(known!.vendor).toBe("Known");
    expect((await resultsOf(job)).map((r) => r.merge_status)).toEqual(["accepted", "merged", "merged", "pending"]);

    const undo = await a.req("POST", `discovery/merges/${body.audit_id}/undo`, a.admin);
    expect(undo.status, await undo.clone().text()).toBe(200);
    expect(await a.t.sql`select id from hardware where name like 'bulk-_'`).toHaveLength(0);
    const [unknown] = await a.t.sql`select vendor from hardware where id = ${hw}`;
    expect(unknown!.vendor).toBeNull();
    expect((await resultsOf(job)).map((r) => r.merge_status)).toEqual(["pending", "pending", "pending", "pending"]);
  });

  it("lets one of two concurrent merges of a result through and one of two concurrent undos", async () => {
    const job = await a.job({ status: "completed" });
    await record(job, [finding("127.0.5.10", { hostname: "race-one" })]);
    const [r] = await resultsOf(job);
    const merges = await Promise.all([0, 1].map(() => a.req("POST", `discovery/results/${r!.id}/merge`, a.admin, { action: "accept" })));
    expect(merges.map((m) => m.status).sort()).toEqual([200, 409]);
    expect(await a.t.sql`select id from hardware where name = 'race-one'`).toHaveLength(1);
    const auditId = (await merges.find((m) => m.status === 200)!.json()).audit_id;
    const undos = await Promise.all([0, 1].map(() => a.req("POST", `discovery/merges/${auditId}/undo`, a.admin)));
    expect(undos.map((u) => u.status).sort()).toEqual([200, 409]);
    expect(await a.t.sql`select id from hardware where name = 'race-one'`).toHaveLength(0);
    expect(await a.t.sql`select id from audit_log where action = 'discovery.merge.undo' and entity_id = ${String(auditId)}`).toHaveLength(
      1,
    );
  });

  it("makes one node of two new results of one address from two scans", async () => {
    const first = await a.job({ status: "completed" });
    const second = await a.job({ status: "completed" });
    await record(first, [finding("127.0.5.20", { hostname: "twice-seen" })]);
    await record(second, [finding("127.0.5.20", { hostname: "twice-seen", open_ports: [{ port: 22, protocol: "tcp" }] })]);
    const ids = [...(await resultsOf(first)), ...(await resultsOf(second))].map((r) => r.id);
    const body = await (await a.req("POST", "discovery/results/bulk-merge", a.admin, { result_ids: ids, action: "accept" })).json();
    expect(body).toMatchObject({ accepted: 2 });
    const nodes = await a.t.sql`select id from hardware where name = 'twice-seen'`;
    expect(nodes).toHaveLength(1);
    const linked = await a.t.sql`select distinct matched_entity_id from scan_results where id in ${a.t.sql(ids)}`;
    expect(linked).toEqual([{ matched_entity_id: nodes[0]!.id }]);
  });

  it("rejects in bulk; an empty outcome has no audit entry", async () => {
    const job = await a.job({ status: "completed" });
    await record(job, [finding("127.0.5.1"), finding("127.0.5.2")]);
    const ids = (await resultsOf(job)).map((r) => r.id);
    const body = await (await a.req("POST", "discovery/results/bulk-merge", a.admin, { result_ids: ids, action: "reject" })).json();
    expect(body).toMatchObject({ accepted: 0, rejected: 2, skipped: 0 });
    const again = await (await a.req("POST", "discovery/results/bulk-merge", a.admin, { result_ids: ids, action: "reject" })).json();
    expect(again).toEqual({ accepted: 0, rejected: 0, skipped: 2, audit_id: null });
  });

  it("refuses bad input with 422, unknown ids with 404, non-merges with 404, and viewers with 403", async () => {
    const job = await a.job({ status: "completed" });
    await record(job, [finding("127.0.6.1")]);
    const [r] = await resultsOf(job);
    const bad = await a.req("POST", `discovery/results/${r!.id}/merge`, a.admin, { action: "maybe" });
    expect(bad.status).toBe(422);
    expect((await bad.json()).fields).toHaveProperty("action");
    const badOverride = await a.req("POST", `discovery/results/${r!.id}/merge`, a.admin, {
      action: "accept",
      overrides: { ip_address: "1.2.3.4" },
    });
    expect(badOverride.status).toBe(422);
    const emptyName = await a.req("POST", `discovery/results/${r!.id}/merge`, a.admin, { action: "accept", overrides: { name: "  " } });
    expect(emptyName.status).toBe(422);
    expect((await resultsOf(job))[0]!.merge_status).toBe("pending");
    expect((await a.req("POST", "discovery/results/999999/merge", a.admin, { action: "accept" })).status).toBe(404);
    expect((await a.req("POST", `discovery/results/${r!.id}/merge`, a.viewer, { action: "accept" })).status).toBe(403);
    expect((await a.req("POST", "discovery/results/bulk-merge", a.editor, { result_ids: [r!.id], action: "accept" })).status).toBe(403);
    const [other] = await a.t
      .sql`select id::int as id from audit_log where entity_type is distinct from 'discovery_merge' order by id desc limit 1`;
    expect((await a.req("POST", `discovery/merges/${other!.id}/undo`, a.admin)).status).toBe(404);
    expect((await a.req("POST", "discovery/merges/77777777/undo", a.admin)).status).toBe(404);
  });
});

describe("OpenAPI", () => {
  it("documents every results and merge route under the discovery tag with its schemas and errors", async () => {
    const doc = await (await a.req("GET", "/api/openapi.json")).json();
    const ops: [string, string, boolean][] = [
      ["/api/v1/discovery/results", "get", false],
      ["/api/v1/discovery/results/suggest", "post", true],
      ["/api/v1/discovery/results/bulk-merge", "post", true],
      ["/api/v1/discovery/results/enhanced-bulk-merge", "post", true],
      ["/api/v1/discovery/results/{result_id}/merge", "post", true],
      ["/api/v1/discovery/jobs/{job_id}/results", "get", false],
      ["/api/v1/discovery/jobs/{job_id}/batch-import", "post", true],
      ["/api/v1/discovery/jobs/{job_id}/import-as-network", "post", true],
      ["/api/v1/discovery/merges/{audit_id}/undo", "post", false],
    ];
    for (const [path, method, hasBody] of ops) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.tags).toEqual(["discovery"]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "401", "403", "422", "429"]));
      expect(op.responses["200"].content["application/json"].schema, `${method} ${path} response`).toBeDefined();
      if (hasBody) expect(op.requestBody?.content["application/json"].schema, `${method} ${path} body`).toBeDefined();
    }
    expect(Object.keys(doc.paths["/api/v1/discovery/merges/{audit_id}/undo"].post.responses)).toEqual(
      expect.arrayContaining(["404", "409"]),
    );
  });
});
