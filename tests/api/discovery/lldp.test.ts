// LLDP enrichment against real snmpd daemons on loopback (127.0.8.1 "core-sw", 127.0.8.2 "dist-sw"), each
// serving a recorded LLDP-MIB walk (tests/fixtures/lldp/*.walk, snmpwalk -On format) through pass_persist:
// the route queues the job with the community sealed, the runner walks LLDP-MIB with the telemetry
// poller's SNMP reader, neighbours are matched to the inventory (address, name, chassis), and apply makes
// hardware connections and stubs. Not tested here: real switches' LLDP agents and SNMPv3 (not supported).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLogger } from "../../../shared/logger.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { openJobRun } from "../../../sidecar/discovery/job-run.ts";
import { discoveryWorker } from "../../../sidecar/discovery/discovery-worker.ts";
import { capsOf, parseLldp } from "../../../sidecar/discovery/lldp/lldp-mib.ts";
import { runLldpJob } from "../../../sidecar/discovery/lldp/run-lldp-job.ts";
import { freeUdpPort, type Snmpd, startSnmpd } from "../../helpers/snmpd.ts";
import { type AgentActors, createAgentActors } from "../agents/support.ts";

const COMMUNITY = "lldp-s3cret-community";
const FIXTURES = join(import.meta.dirname, "../../fixtures/lldp");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let a: AgentActors;
let port: number;
const daemons: Snmpd[] = [];
const hw: Record<string, number> = {};

/** snmpd on `address` answering sysName `name` and the LLDP-MIB of the recorded `walk`. */
async function lldpAgent(address: string, name: string, walk: string): Promise<void> {
  const passPersist = `pass_persist .1.0.8802.1.1.2 ${process.execPath} ${join(FIXTURES, "pass-persist.mjs")} ${join(FIXTURES, walk)}`;
  daemons.push(await startSnmpd({ address, port, community: COMMUNITY, lines: [`sysName ${name}`, passPersist] }));
}

beforeAll(async () => {
  a = await createAgentActors();
  port = await freeUdpPort("127.0.8.1");
  await lldpAgent("127.0.8.1", "core-sw", "core-sw.walk");
  await lldpAgent("127.0.8.2", "dist-sw", "dist-sw.walk");
  hw.core = await a.node("core-sw", { ip: "127.0.8.1" });
  hw.dist = await a.node("dist-sw", { ip: "127.0.8.2/24" });
  hw.nas = await a.node("nas01", { ip: "10.1.1.1" });
  hw.printer = await a.node("printer");
  hw.public = await a.node("cloud-vm", { ip: "8.8.8.8" });
});

afterAll(async () => {
  for (const d of daemons) d.stop();
  await a?.t.close();
});

async function runJob(id: number, signal = new AbortController().signal): Promise<void> {
  const ctx = systemContext({ db: a.t.runtime.database.db, clock: a.clock, random: a.t.runtime.deps.random });
  const row = (await ctx.db.query.scanJobs.findFirst({ where: (j, { eq }) => eq(j.id, id) }))!;
  const handle = openJobRun({ ctx, vault: a.t.runtime.deps.vault, logger: jsonLogger("error", () => {}) }, row, signal, {
    progressMs: 50,
    heartbeatMs: 1000,
    logsMs: 50,
    logsBatch: 100,
  });
  try {
    await runLldpJob(handle.run);
  } finally {
    await handle.close();
  }
}

const enrich = (body: unknown, token = a.admin) => a.req("POST", "discovery/lldp-enrich", token, body);
let jobId: number;
let neighbors: Record<string, any>[];

describe("POST /discovery/lldp-enrich", () => {
  it("refuses bad input with 422 naming the field, nodes without a usable address with 400, a viewer with 403; nothing queued", async () => {
    for (const [body, field] of [
      [{}, "hardware_ids"],
      [{ hardware_ids: [] }, "hardware_ids"],
      [{ hardware_ids: [hw.core], snmp_port: 0 }, "snmp_port"],
      [{ hardware_ids: [hw.core], snmp_community: "" }, "snmp_community"],
    ] as const) {
      const res = await enrich(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify((await res.json()).detail)).toContain(field);
    }
    const none = await enrich({ hardware_ids: [hw.printer, hw.public] });
    expect(none.status).toBe(400);
    expect((await none.json()).detail).toBe("No valid IP addresses for selected nodes");
    expect((await enrich({ hardware_ids: [hw.core] }, a.viewer)).status).toBe(403);
    expect(Number((await a.t.sql`select count(*)::int as n from scan_jobs`)[0]!.n)).toBe(0);
  });

  it("queues an lldp job over the nodes with addresses, the community sealed in the job", async () => {
    const res = await enrich({ hardware_ids: [hw.core, hw.dist, hw.printer, hw.public], snmp_community: COMMUNITY, snmp_port: port });
    expect(res.status, await res.clone().text()).toBe(200);
    jobId = (await res.json()).job_id;
    const [job] = await a.t.sql`select status, scan_types, targets, options, snmp_community from scan_jobs where id = ${jobId}`;
    expect(job).toMatchObject({ status: "queued", scan_types: ["lldp"], targets: ["127.0.8.1", "127.0.8.2"] });
    expect(job!.options.nodes).toEqual([
      { hardware_id: hw.core, ip_address: "127.0.8.1" },
      { hardware_id: hw.dist, ip_address: "127.0.8.2" },
    ]);
    expect(job!.snmp_community).toMatch(/^vault:/);
    expect(job!.snmp_community).not.toContain(COMMUNITY);
  });
});

describe("the lldp job and its results", () => {
  it("walks LLDP-MIB on each node and matches neighbours by address, name and chassis", async () => {
    await runJob(jobId);
    const res = await a.req("GET", `discovery/lldp-jobs/${jobId}/results`, a.viewer);
    expect(res.status).toBe(200);
    const body = await res.json();
    neighbors = body.neighbors;
    const view = neighbors.map((n) => [
      n.source_hardware_name,
      n.local_port_desc,
      n.remote_sys_name,
      n.remote_chassis_id,
      n.remote_port_desc,
      n.remote_mgmt_ip,
      n.remote_caps,
      n.remote_hardware_name,
      n.is_new_stub,
    ]);
    expect(view).toEqual([
      [
        "core-sw",
        "GigabitEthernet1/0/1",
        "dist-sw",
        "00:11:22:33:44:02",
        "uplink to core",
        "127.0.8.2",
        ["bridge", "router"],
        "dist-sw",
        false,
      ],
      ["core-sw", "GigabitEthernet1/0/2", "nas01.lab", "00:11:22:33:44:50", "enp3s0", "192.168.99.50", ["stationOnly"], "nas01", false],
      ["core-sw", "GigabitEthernet1/0/3", "ap-lobby", "00:11:22:33:44:09", "eth0", "127.0.8.9", ["wlanAccessPoint"], null, true],
      ["core-sw", "GigabitEthernet1/0/4", null, "phone-1234", "LAN", null, ["telephone"], null, true],
      [
        "dist-sw",
        "GigabitEthernet0/48",
        "core-sw",
        "00:11:22:33:44:01",
        "GigabitEthernet1/0/1",
        "127.0.8.1",
        ["bridge", "router"],
        "core-sw",
        false,
      ],
    ]);
    expect(neighbors.map((n) => n.neighbor_index)).toEqual([0, 1, 2, 3, 0]);
    const [job] = await a.t.sql`select hosts_found from scan_jobs where id = ${jobId}`;
    expect(job!.hosts_found).toBe(2);
    const logs = await a.t.sql<
      { message: string; details: unknown }[]
    >`select message, details from scan_logs where scan_job_id = ${jobId} order by id`;
    const text = JSON.stringify(logs);
    expect(text).toContain("127.0.8.1 (core-sw): 4 LLDP neighbours");
    expect(text).toContain(`Hardware ${hw.printer} skipped: no IPv4 address`);
    expect(text).toContain("8.8.8.8 is outside the allowed targets");
    expect(text).not.toContain(COMMUNITY);
    const audit = await a.t.sql`select diff from audit_log`;
    expect(JSON.stringify(audit)).not.toContain(COMMUNITY);
  });

  it("404 for a job that is not an LLDP job or does not exist", async () => {
    const [other] = await a.t.sql<{ id: number }[]>`insert into scan_jobs (scan_types) values ('["icmp"]') returning id`;
    expect((await a.req("GET", `discovery/lldp-jobs/${other!.id}/results`, a.viewer)).status).toBe(404);
    expect((await a.req("GET", "discovery/lldp-jobs/999999/results", a.viewer)).status).toBe(404);
  });
});

describe("POST /discovery/lldp-jobs/{job_id}/apply", () => {
  const pair = (n: Record<string, any>) => ({ source_scan_result_id: n.source_scan_result_id, neighbor_index: n.neighbor_index });

  it("refuses a pair the job does not have with 422 and writes nothing", async () => {
    const res = await a.req("POST", `discovery/lldp-jobs/${jobId}/apply`, a.admin, {
      connections: [pair(neighbors[0]!), { source_scan_result_id: neighbors[0]!.source_scan_result_id, neighbor_index: 77 }],
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify((await res.json()).detail)).toContain("connections");
    expect(Number((await a.t.sql`select count(*)::int as n from hardware_connections`)[0]!.n)).toBe(0);
  });

  it("creates connections, stubs with roles from the capabilities, and never doubles a link", async () => {
    const events = await a.listen("topology");
    const res = await a.req("POST", `discovery/lldp-jobs/${jobId}/apply`, a.admin, { connections: neighbors.map(pair) });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ edges_created: 4, stubs_created: 2, edges_existing: 1 });
    const stubs = await a.t.sql`select name, role, ip_address, mac_address from hardware where id > ${hw.public!} order by id`;
    expect(stubs).toEqual([
      { name: "ap-lobby", role: "access_point", ip_address: "127.0.8.9", mac_address: "00:11:22:33:44:09" },
      { name: "phone-1234", role: "misc", ip_address: null, mac_address: null },
    ]);
    const edges = await a.t
      .sql`select s.name as source, t.name as target, c.connection_type, c.notes from hardware_connections c join hardware s on s.id = c.source_hardware_id join hardware t on t.id = c.target_hardware_id order by c.id`;
    expect(edges.map((e) => [e.source, e.target, e.connection_type])).toEqual([
      ["core-sw", "dist-sw", "ethernet"],
      ["core-sw", "nas01", "ethernet"],
      ["core-sw", "ap-lobby", "ethernet"],
      ["core-sw", "phone-1234", "ethernet"],
    ]);
    expect(edges[0]!.notes).toBe("LLDP: GigabitEthernet1/0/1 <-> uplink to core");
    const graph = await a.req("GET", `hardware/${hw.core}/connections`, a.viewer);
    expect((await graph.json()).length).toBe(4);
    const [audit] = await a.t.sql`select diff from audit_log where action = 'discovery.lldp.apply'`;
    expect(audit!.diff.stubs_created).toHaveLength(2);
    for (let i = 0; i < 50 && events.payloads.length < 6; i++) await sleep(20);
    expect(events.payloads.filter((p) => p.entity === "hardware_connection")).toHaveLength(4);
    await events.stop();

    const results = await (await a.req("GET", `discovery/lldp-jobs/${jobId}/results`, a.viewer)).json();
    expect(results.neighbors.every((n: Record<string, unknown>) => n.applied_at && n.remote_hardware_id && !n.is_new_stub)).toBe(true);
    const again = await a.req("POST", `discovery/lldp-jobs/${jobId}/apply`, a.admin, { connections: neighbors.map(pair) });
    expect(await again.json()).toEqual({ edges_created: 0, stubs_created: 0, edges_existing: 5 });
  });
});

describe("failures", () => {
  it("a node that does not answer is logged, and a job where none answers fails; an abort stops it within a second", async () => {
    const silent = await a.node("silent-sw", { ip: "127.0.8.50" });
    const res = await enrich({ hardware_ids: [silent], snmp_community: COMMUNITY, snmp_port: port });
    const { job_id } = await res.json();
    await expect(runJob(job_id)).rejects.toThrow(/No node answered LLDP-MIB over SNMP \(127\.0\.8\.50: /);

    await a.t.sql`update scan_jobs set status = 'completed'`;
    const second = await (await enrich({ hardware_ids: [silent], snmp_community: COMMUNITY, snmp_port: port })).json();
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(), 100);
    await runJob(second.job_id, ac.signal);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("an lldp job without nodes", () => {
  it("(from POST /discovery/scan) fails saying how to start one", async () => {
    const [job] = await a.t.sql<
      { id: number }[]
    >`insert into scan_jobs (scan_types, targets) values ('["lldp"]', '["127.0.8.1"]') returning id`;
    await expect(runJob(job!.id)).rejects.toThrow("start it with POST /discovery/lldp-enrich");
  });
});

describe("through the sidecar's discovery worker", () => {
  it("an enrichment queued over HTTP is claimed, walked and completed", async () => {
    await a.t.sql`update scan_jobs set status = 'completed' where status in ('queued', 'running')`;
    const worker = discoveryWorker(a.t.runtime, { pollMs: 100, progressMs: 50, logsMs: 50, readinessMs: 3_600_000, recoverMs: 3_600_000 });
    await worker.start();
    try {
      const { job_id } = await (await enrich({ hardware_ids: [hw.dist], snmp_community: COMMUNITY, snmp_port: port })).json();
      let job: Record<string, any> | undefined;
      for (let i = 0; i < 200; i++) {
        [job] = await a.t.sql`select status, error_text from scan_jobs where id = ${job_id}`;
        if (job!.status === "completed" || job!.status === "failed") break;
        await sleep(50);
      }
      expect(job).toMatchObject({ status: "completed", error_text: null });
      const body = await (await a.req("GET", `discovery/lldp-jobs/${job_id}/results`, a.viewer)).json();
      expect(
        body.neighbors.map((n: Record<string, unknown>) => [n.source_hardware_name, n.remote_sys_name, n.remote_hardware_name]),
      ).toEqual([["dist-sw", "core-sw", "core-sw"]]);
    } finally {
      await worker.stop();
    }
  });
});

describe("LLDP-MIB parsing", () => {
  const vb = (oid: string, value: unknown) => ({ oid, type: 4, value }) as never;
  it("reads capability bits most significant first, takes the first IPv4 management address and ignores IPv6", () => {
    expect(capsOf(Buffer.from([0x28, 0x00]))).toEqual(["bridge", "router"]);
    expect(capsOf(Buffer.from([0x80, 0x40]))).toEqual(["other", "sVLANComponent"]);
    expect(capsOf("not bits")).toEqual([]);
    const rem = [
      vb("1.0.8802.1.1.2.1.4.1.1.4.0.7.3", 4),
      vb("1.0.8802.1.1.2.1.4.1.1.5.0.7.3", Buffer.from([0, 1, 2, 3, 4, 5])),
      vb("1.0.8802.1.1.2.1.4.1.1.9.0.7.3", Buffer.from("sw")),
    ];
    const v6 = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1].join(".");
    const man = [
      vb(`1.0.8802.1.1.2.1.4.2.1.3.0.7.3.2.16.${v6}`, 2),
      vb("1.0.8802.1.1.2.1.4.2.1.3.0.7.3.1.4.10.0.0.7", 2),
      vb("1.0.8802.1.1.2.1.4.2.1.3.0.7.3.1.4.10.0.0.8", 2),
    ];
    const [n] = parseLldp(rem, man, []);
    expect(n).toMatchObject({
      local_port_num: 7,
      rem_index: 3,
      local_port_desc: null,
      remote_chassis_id: "00:01:02:03:04:05",
      remote_sys_name: "sw",
      remote_mgmt_ip: "10.0.0.7",
      remote_caps: [],
    });
  });
});
