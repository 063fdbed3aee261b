// The hypervisor discover (spec/catalogue.tsv, group hypervisor integration, issue 14 item 3) against the fake Proxmox VE API
// (tests/helpers/fake-pve.ts: the recorded 3-node cluster "homelab" over HTTPS on 127.0.44.x): the first
// run imports exactly the fixture; a run after guests were added, changed, moved and removed updates the
// inventory exactly and reports what vanished; a re-run with nothing changed writes no row; a refused
// token, an untrusted certificate and a timeout each fail the run with a clear error and change nothing else.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cryptoRandom } from "../../../shared/clock.ts";
import type { OutboundHttp } from "../../../shared/net/outbound.ts";
import { discoverHv } from "../../../shared/verbs/integrations/hv/discover.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { FAKE_PVE_TOKEN, type FakePve, startFakePve } from "../../helpers/fake-pve.ts";

let a: Actors;
let pve: FakePve;

const GiB = 1024 ** 3;

beforeAll(async () => {
  a = await createActors();
  pve = await startFakePve({ host: "127.0.44.7" });
});
afterAll(async () => {
  await pve?.close();
  await a?.t.close();
});

const ctx = (outbound: OutboundHttp = a.t.runtime.deps.outbound) =>
  systemContext({
    db: a.t.runtime.database.provider.lease().db,
    clock: { now: () => new Date() },
    random: cryptoRandom,
    outbound,
    vault: a.t.runtime.deps.vault,
  });
const discover = (id: number, outbound?: OutboundHttp) => discoverHv(ctx(outbound), id, "manual", "admin@example.com");

async function addHv(fields: Record<string, unknown> = {}): Promise<number> {
  const res = await a.req("POST", "integrations/hv", a.admin, {
    name: "homelab",
    config_url: pve.url,
    api_token: FAKE_PVE_TOKEN,
    verify_ssl: false,
    ...fields,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { id: number }).id;
}

/** The inventory rows of a source by external id: entity, status and the columns discover writes. */
async function imported(id: number) {
  const rows = await a.t.sql`
    select r.external_id, r.entity_type, r.entity_id, r.attributes,
      coalesce(h.name, c.name, n.name, s.name) as name, coalesce(h.status, c.status) as status,
      c.kind, c.ip_address as cu_ip, c.memory_mb, c.cpu_cores, c.disk_gb, c.os, c.hardware_id as cu_hw, c.version as cu_version,
      h.ip_address as hw_ip, h.memory_gb, n.cidr, n.gateway, s.kind as storage_kind, s.capacity_gb, s.hardware_id as st_hw
    from external_refs r
    left join hardware h on r.entity_type = 'hardware' and h.id = r.entity_id
    left join compute_units c on r.entity_type = 'compute_unit' and c.id = r.entity_id
    left join networks n on r.entity_type = 'network' and n.id = r.entity_id
    left join storage s on r.entity_type = 'storage' and s.id = r.entity_id
    where r.source = ${`hv:${id}`} order by r.external_id`;
  return new Map(rows.map((r) => [r.external_id as string, r]));
}

/** Every inventory table discover touches, as one digest: "changes nothing" compares it. */
async function inventoryDigest(): Promise<string> {
  const [row] = await a.t.sql`select md5(concat_ws('|',
    (select string_agg(h::text, ',' order by id) from hardware h), (select string_agg(c::text, ',' order by id) from compute_units c),
    (select string_agg(n::text, ',' order by id) from networks n), (select string_agg(s::text, ',' order by id) from storage s),
    (select string_agg(r::text, ',' order by id) from external_refs r),
    (select string_agg(m::text, ',' order by network_id, compute_id) from network_members m),
    (select string_agg(m::text, ',' order by network_id, hardware_id) from network_hardware_members m))) as d`;
  return row!.d as string;
}

const membersOf = async (networkId: number) => ({
  guests: (
    await a.t
      .sql`select c.name, m.ip_address from network_members m join compute_units c on c.id = m.compute_id where m.network_id = ${networkId} order by c.name`
  ).map((r) => `${r.name}=${r.ip_address}`),
  nodes: (
    await a.t
      .sql`select h.name, m.ip_address from network_hardware_members m join hardware h on h.id = m.hardware_id where m.network_id = ${networkId} order by h.name`
  ).map((r) => `${r.name}=${r.ip_address}`),
});

const runRow = async (runId: number) => (await a.t.sql`select * from hv_discover_runs where id = ${runId}`)[0]!;

describe("hypervisor discover", () => {
  let id: number;

  it("the first run imports exactly the recorded cluster, in one audited transaction with a completed run row", async () => {
    id = await addHv();
    const out = await discover(id);
    expect(out).toMatchObject({
      ok: true,
      cluster_name: "homelab",
      nodes_imported: 3,
      vms_imported: 3,
      cts_imported: 3,
      networks_imported: 2,
      storage_imported: 7,
      results_queued: 0,
      review_job_id: null,
      errors: [],
      vanished: [],
    });

    const inv = await imported(id);
    expect([...inv.keys()]).toEqual([
      "bridge/vmbr0",
      "bridge/vmbr1",
      "lxc/200",
      "lxc/201",
      "lxc/202",
      "node/pve1",
      "node/pve2",
      "node/pve3",
      "qemu/101",
      "qemu/102",
      "qemu/103",
      "storage/nas-nfs",
      "storage/pve1/local",
      "storage/pve1/local-lvm",
      "storage/pve2/local",
      "storage/pve2/local-lvm",
      "storage/pve3/local",
      "storage/pve3/local-zfs",
    ]);
    const pve1 = inv.get("node/pve1")!;
    expect(pve1).toMatchObject({ entity_type: "hardware", name: "pve1", status: "up", hw_ip: "192.168.10.11", memory_gb: 62.7 });
    expect(inv.get("qemu/101")).toMatchObject({
      entity_type: "compute_unit",
      name: "web",
      kind: "vm",
      status: "running",
      cu_ip: "192.168.10.101",
      memory_mb: 4096,
      cpu_cores: 2,
      disk_gb: 32,
      os: "l26",
      cu_hw: pve1.entity_id,
    });
    expect(inv.get("qemu/101")!.attributes).toMatchObject({ vmid: 101, node: "pve1", tags: ["prod", "web"], macs: ["bc:24:11:0a:01:01"] });
    expect(inv.get("qemu/103")).toMatchObject({
      name: "win-test",
      status: "stopped",
      cu_ip: null,
      os: "win11",
      cu_hw: inv.get("node/pve2")!.entity_id,
    });
    expect(inv.get("lxc/200")).toMatchObject({
      name: "dns",
      kind: "container",
      status: "running",
      cu_ip: "192.168.10.200",
      memory_mb: 512,
      os: "debian",
    });
    expect(inv.get("lxc/202")).toMatchObject({ name: "media", cu_ip: null, cu_hw: inv.get("node/pve3")!.entity_id });
    expect(inv.get("storage/pve1/local-lvm")).toMatchObject({
      name: "local-lvm (pve1)",
      storage_kind: "pool",
      capacity_gb: 350,
      st_hw: pve1.entity_id,
    });
    expect(inv.get("storage/nas-nfs")).toMatchObject({ name: "nas-nfs", storage_kind: "share", capacity_gb: 4096, st_hw: null });
    expect(inv.get("storage/pve3/local")).toMatchObject({ storage_kind: "dataset" });
    expect(inv.get("bridge/vmbr0")).toMatchObject({
      entity_type: "network",
      name: "vmbr0 (homelab)",
      cidr: "192.168.10.0/24",
      gateway: "192.168.10.1",
    });
    expect(inv.get("bridge/vmbr1")).toMatchObject({ name: "vmbr1 (homelab)", cidr: null });
    expect(await membersOf(inv.get("bridge/vmbr0")!.entity_id)).toEqual({
      guests: ["db=192.168.10.102", "dns=192.168.10.200", "media=null", "proxy=192.168.10.201", "web=192.168.10.101", "win-test=null"],
      nodes: ["pve1=192.168.10.11", "pve2=192.168.10.12", "pve3=192.168.10.13"],
    });
    expect(await membersOf(inv.get("bridge/vmbr1")!.entity_id)).toEqual({ guests: ["db=null"], nodes: ["pve1=null"] });
    // The template (qemu/9000) is not a guest of the inventory.
    expect(inv.has("qemu/9000")).toBe(false);

    // 18 rows + 7 guest and 4 node memberships.
    expect(out.rows_written).toBe(18 + 7 + 4);
    const run = await runRow(out.run_id);
    expect(run).toMatchObject({
      integration_id: id,
      status: "completed",
      trigger: "manual",
      triggered_by: "admin@example.com",
      cluster_name: "homelab",
      nodes_imported: 3,
      vms_imported: 3,
      cts_imported: 3,
      networks_imported: 2,
      storage_imported: 7,
      rows_written: 29,
      errors: [],
      vanished: [],
    });
    expect(run.completed_at).not.toBeNull();
    const [audit] = await a.t.sql`select id, action, category, diff from audit_log where id = ${run.audit_id}`;
    expect(audit).toMatchObject({ action: "integrations.hv.discover", category: "inventory" });
    expect((audit!.diff as { created: unknown[] }).created).toHaveLength(18);
    const [cfg] = await a.t.sql`select cluster_name, last_sync_status, last_sync_error from integration_configs where id = ${id}`;
    expect(cfg).toEqual({ cluster_name: "homelab", last_sync_status: "ok", last_sync_error: null });
    // Reads went through bounded concurrency.
    expect(pve.maxInFlight).toBeLessThanOrEqual(8);
  });

  it("a re-run with nothing changed writes no row", async () => {
    const before = await inventoryDigest();
    const out = await discover(id);
    expect(out).toMatchObject({ ok: true, rows_written: 0, vanished: [], vms_imported: 3 });
    expect(await inventoryDigest()).toBe(before);
    expect(await runRow(out.run_id)).toMatchObject({ status: "completed", rows_written: 0 });
  });

  it("after guests were added, changed, moved and removed, the next run updates exactly those and reports what vanished", async () => {
    const inv0 = await imported(id);
    pve.addGuest(
      "lxc",
      { vmid: 203, name: "git", node: "pve2", status: "running", template: 0, maxcpu: 2, maxmem: 2 * GiB, maxdisk: 16 * GiB },
      {
        hostname: "git",
        cores: 2,
        memory: 2048,
        ostype: "debian",
        rootfs: "local-lvm:vm-203-disk-0,size=16G",
        net0: "name=eth0,bridge=vmbr0,hwaddr=BC:24:11:0B:02:03,ip=192.168.10.203/24,type=veth",
      },
    );
    pve.changeGuest("qemu/101", { status: "stopped", maxmem: 8 * GiB }, { memory: "8192" });
    pve.changeGuest("lxc/201", { node: "pve3" });
    pve.removeGuest("qemu/102");

    const out = await discover(id);
    expect(out).toMatchObject({ ok: true, vms_imported: 2, cts_imported: 4 });
    expect(out.vanished).toEqual([
      { entity_type: "compute_unit", entity_id: inv0.get("qemu/102")!.entity_id, external_id: "qemu/102", name: "db" },
    ]);
    const inv = await imported(id);
    expect(inv.get("lxc/203")).toMatchObject({
      name: "git",
      kind: "container",
      status: "running",
      cu_ip: "192.168.10.203",
      cu_hw: inv.get("node/pve2")!.entity_id,
    });
    expect(inv.get("qemu/101")).toMatchObject({ status: "stopped", memory_mb: 8192, cu_version: inv0.get("qemu/101")!.cu_version + 1 });
    expect(inv.get("lxc/201")).toMatchObject({ cu_hw: inv.get("node/pve3")!.entity_id });
    // Marked, not deleted: the row and its edits stay.
    expect(inv.get("qemu/102")).toMatchObject({ name: "db", status: "removed" });
    expect(inv.get("qemu/102")!.attributes.removed_at).toBeTruthy();
    // Nothing else changed.
    for (const key of ["qemu/103", "lxc/200", "lxc/202", "node/pve1", "storage/nas-nfs", "bridge/vmbr0"])
      expect(inv.get(key), key).toEqual(inv0.get(key));
    expect((await membersOf(inv.get("bridge/vmbr0")!.entity_id)).guests).toContain("git=192.168.10.203");
    // 1 insert + 2 updates + 1 marked + 1 membership.
    expect(out.rows_written).toBe(5);
    expect(await runRow(out.run_id)).toMatchObject({ rows_written: 5, vanished: out.vanished });

    // Vanished once: the next run reports nothing and writes nothing.
    const again = await discover(id);
    expect(again).toMatchObject({ rows_written: 0, vanished: [] });

    // A guest that comes back is live again under the same row.
    pve.addGuest(
      "qemu",
      { vmid: 102, name: "db", node: "pve1", status: "running", template: 0, maxcpu: 4, maxmem: 8 * GiB, maxdisk: 64 * GiB },
      {
        name: "db",
        cores: 2,
        sockets: 2,
        memory: "8192",
        ostype: "l26",
        net0: "virtio=BC:24:11:0A:01:02,bridge=vmbr0",
        net1: "virtio=BC:24:11:0A:02:02,bridge=vmbr1,tag=20",
        ipconfig0: "ip=192.168.10.102/24,gw=192.168.10.1",
      },
    );
    await discover(id);
    const back = (await imported(id)).get("qemu/102")!;
    expect(back).toMatchObject({ entity_id: inv0.get("qemu/102")!.entity_id, status: "running" });
    expect(back.attributes.removed_at).toBeUndefined();
  });

  it("a refused token fails the run with a clear error and changes nothing else", async () => {
    const before = await inventoryDigest();
    pve.token = "root@pam!inventory=rotated-secret";
    try {
      const out = await discover(id);
      expect(out.ok).toBe(false);
      expect(out.errors[0]).toMatch(/API token was refused/);
      expect(out.errors[0]).not.toContain(FAKE_PVE_TOKEN.split("=")[1]);
      expect(await runRow(out.run_id)).toMatchObject({ status: "failed", errors: out.errors, rows_written: 0 });
      const [cfg] = await a.t.sql`select last_sync_status, last_sync_error from integration_configs where id = ${id}`;
      expect(cfg).toEqual({ last_sync_status: "error", last_sync_error: out.errors[0] });
    } finally {
      pve.token = FAKE_PVE_TOKEN;
    }
    expect(await inventoryDigest()).toBe(before);
  });

  it("a self-signed certificate with verify_ssl on (no CA) fails the run as not trusted and changes nothing", async () => {
    const strict = await addHv({ name: "strict", verify_ssl: true });
    const before = await inventoryDigest();
    const out = await discover(strict);
    expect(out.ok).toBe(false);
    expect(out.errors[0]).toMatch(/certificate of https:\/\/127\.0\.44\.7:\d+ is not trusted/);
    expect(await runRow(out.run_id)).toMatchObject({ status: "failed", integration_id: strict });
    expect(await inventoryDigest()).toBe(before);
  });

  it("a cluster that does not answer in time fails the run as a timeout and changes nothing", async () => {
    const before = await inventoryDigest();
    // The real OutboundHttp, with the per-call timeout cut to 300 ms so the test does not wait 15 s.
    const real = a.t.runtime.deps.outbound;
    const short: OutboundHttp = {
      request: (req) => real.request({ ...req, timeoutMs: 300 }),
      stream: (req) => real.stream({ ...req, timeoutMs: 300 }),
    };
    pve.delayMs = 1000;
    try {
      const out = await discover(id, short);
      expect(out.ok).toBe(false);
      expect(out.errors[0]).toMatch(/did not answer within 300 ms/);
      expect(await runRow(out.run_id)).toMatchObject({ status: "failed" });
    } finally {
      pve.delayMs = 0;
    }
    expect(await inventoryDigest()).toBe(before);
  });

  it("a malformed stored token is the reference's 400 before any run", async () => {
    const bad = await addHv({ name: "bad" });
    await a.t.sql`update integration_configs set credential = null where id = ${bad}`;
    await expect(discover(bad)).rejects.toMatchObject({ status: 400 });
    expect(await a.t.sql`select id from hv_discover_runs where integration_id = ${bad}`).toHaveLength(0);
  });

  it("adopts a node already in the inventory; a guest config that cannot be read is a partial run that leaves that guest's read fields alone; reads run in parallel, at most 8 at once", async () => {
    const [manual] = await a.t
      .sql`insert into hardware (name, role, ip_address, status) values ('PVE2', 'server', '10.1.1.1', 'unknown') returning id`;
    const second = await addHv({ name: "second" });
    const saved = pve.state.configs.get("qemu/103")!;
    pve.state.configs.delete("qemu/103");
    pve.delayMs = 5;
    pve.maxInFlight = 0;
    try {
      const out = await discover(second);
      expect(out.ok).toBe(true);
      expect(out.errors).toHaveLength(1);
      expect(out.errors[0]).toMatch(/^config of qemu\/103: Proxmox VE answered 500 .*qemu-server\/103\.conf' does not exist/);
      expect(pve.maxInFlight).toBeGreaterThan(1);
      expect(pve.maxInFlight).toBeLessThanOrEqual(8);
      const [cfg] = await a.t.sql`select last_sync_status, last_sync_error from integration_configs where id = ${second}`;
      expect(cfg).toMatchObject({ last_sync_status: "partial", last_sync_error: out.errors[0] });
      const inv = await imported(second);
      // Matched by name (case-insensitive), updated to what the cluster says; the first config's nodes are not taken.
      expect(inv.get("node/pve2")).toMatchObject({ entity_id: manual!.id, name: "pve2", status: "up", hw_ip: "192.168.10.12" });
      expect(inv.get("node/pve1")!.entity_id).not.toBe((await imported(id)).get("node/pve1")!.entity_id);
      expect(inv.get("qemu/103")).toMatchObject({ name: "win-test", status: "stopped", cu_ip: null, os: null });

      // The guest's address, once read, stays when a later read of its config fails.
      pve.state.configs.set("qemu/103", { ...saved, ipconfig0: "ip=192.168.10.103/24" });
      await discover(second);
      expect((await imported(second)).get("qemu/103")).toMatchObject({ cu_ip: "192.168.10.103", os: "win11" });
      pve.state.configs.delete("qemu/103");
      const partial = await discover(second);
      expect(partial).toMatchObject({ ok: true, rows_written: 0 });
      expect((await imported(second)).get("qemu/103")).toMatchObject({ cu_ip: "192.168.10.103", os: "win11" });
    } finally {
      pve.state.configs.set("qemu/103", saved);
      pve.delayMs = 0;
    }
  });

  it("a run left running by a stopped process is marked failed by the next run", async () => {
    const [stale] = await a.t
      .sql`insert into hv_discover_runs (integration_id, status, started_at) values (${id}, 'running', now() - interval '2 hours') returning id`;
    const [recent] = await a.t
      .sql`insert into hv_discover_runs (integration_id, status, started_at) values (${id}, 'running', now() - interval '1 minute') returning id`;
    await discover(id);
    expect(await runRow(stale!.id)).toMatchObject({
      status: "failed",
      errors: ["The run was interrupted: the process stopped before it finished."],
    });
    expect(await runRow(recent!.id)).toMatchObject({ status: "running" });
  });
});
