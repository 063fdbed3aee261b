// The `opnsense` scan type and POST /discovery/jobs/{job_id}/enrich, against a fake OPNsense on
// 127.0.0.171 replaying recorded answers (tests/fixtures/opnsense) and fake hosts with open ports on
// 127.0.0.172-173: a firewall read becomes results matched to the inventory (vendor from the OUI table),
// Kea leases are read when ISC dhcpd is missing, a refused key fails the job with its reason, and enrich
// queues an engine scan of the job's private addresses that finds their ports and banners. The worker
// runs jobs through tick() (no readiness probe overwriting what a test stored).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoveryWorker } from "../../../sidecar/discovery/discovery-worker.ts";
import { FAKE_OPNSENSE_KEY, FAKE_OPNSENSE_SECRET, type FakeOpnsense, startFakeOpnsense } from "../../helpers/fake-opnsense.ts";
import { answeringPeer, greetingPeer, type Peer } from "../../sidecar/discovery-engine/support.ts";
import { createDiscoveryActors, type DiscoveryActors } from "./support.ts";

let a: DiscoveryActors;
let fw: FakeOpnsense;
const peers: Peer[] = [];

beforeAll(async () => {
  a = await createDiscoveryActors();
  fw = await startFakeOpnsense("127.0.0.171");
  peers.push(await greetingPeer("127.0.0.172", "SSH-2.0-OpenSSH_9.6 fake\r\n"));
  peers.push(
    await answeringPeer(
      "127.0.0.173",
      "HTTP/1.0 200 OK\r\nServer: fakehttpd/1.0\r\nContent-Type: text/html\r\n\r\n<html><title>Printer panel</title></html>",
    ),
  );
  await a.t.sql`insert into kb_oui (prefix, vendor) values ('00:0D:B9', 'PC Engines (OUI table)') on conflict do nothing`;
});

afterAll(async () => {
  for (const p of peers) await p.close();
  await fw?.close();
  await a?.t.close();
});

const firewall = (body: Record<string, unknown>) => a.req("PATCH", "settings/firewall", a.admin, body);
const enrich = (jobId: number, body?: unknown, token = a.admin) => a.req("POST", `discovery/jobs/${jobId}/enrich`, token, body);
const closeOpenJobs = () => a.t.sql`update scan_jobs set status = 'completed' where status in ('queued', 'running')`;

/** Runs the queued job to its end with the sidecar's worker (one claim round) and answers its row. */
async function runQueued(jobId: number): Promise<Record<string, any>> {
  const worker = discoveryWorker(a.t.runtime, {
    owner: "opnsense-test",
    progressMs: 50,
    logsMs: 50,
    findingsMs: 50,
    readinessMs: 3_600_000,
    recoverMs: 3_600_000,
    hostTimeoutMs: 3_000,
  });
  await worker.tick();
  expect(worker.running()).toContain(jobId);
  await worker.settled(jobId);
  const [job] = await a.t.sql`select * from scan_jobs where id = ${jobId}`;
  return job!;
}

const resultsOf = (jobId: number) =>
  a.t
    .sql`select ip_address, mac_address, hostname, vendor, sources, state, matched_entity_type, matched_entity_id, open_ports from scan_results where scan_job_id = ${jobId} order by ip_address`;

describe("POST /discovery/scan {scan_types: [opnsense]}", () => {
  it("refuses targets, other types, an agent and an unconfigured firewall with 422 naming the field; nothing queued", async () => {
    const [{ n: before }] = (await a.t.sql`select count(*)::int as n from scan_jobs`) as [{ n: number }];
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ scan_types: ["opnsense"] }, "scan_types", /PATCH \/settings\/firewall: OPNsense host is not configured/],
      [{ scan_types: ["opnsense"], targets: ["127.0.0.1"] }, "targets", /takes no targets/],
      [{ scan_types: ["opnsense"], tcp_ports: [22] }, "tcp_ports", /takes no targets, ports/],
      [{ scan_types: ["opnsense", "tcp"] }, "scan_types", /runs alone/],
      [{ scan_types: ["opnsense"], scan_agent_id: 1 }, "scan_types", /runs on the server only/],
    ];
    for (const [body, field, msg] of cases) {
      const res = await a.req("POST", "discovery/scan", a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const err = await res.json();
      expect(err.fields[field], JSON.stringify(body)).toMatch(msg);
    }
    expect((await firewall({ firewall_url: fw.url })).status).toBe(200);
    const noKey = await (await a.req("POST", "discovery/scan", a.admin, { scan_types: ["opnsense"] })).json();
    expect(noKey.fields.scan_types).toMatch(/OPNsense API credentials are not configured/);
    expect((await a.req("POST", "discovery/scan", a.viewer, { scan_types: ["opnsense"] })).status).toBe(403);
    const [{ n: after }] = (await a.t.sql`select count(*)::int as n from scan_jobs`) as [{ n: number }];
    expect(after).toBe(before);
    expect(fw.requests).toHaveLength(0);
  });

  it("reads the ARP table and ISC leases into results matched to the inventory, vendor from the OUI table", async () => {
    expect((await firewall({ firewall_api_key: FAKE_OPNSENSE_KEY, firewall_api_secret: FAKE_OPNSENSE_SECRET })).status).toBe(200);
    const nas = await a.node("nas", { ip: "192.0.2.10" });
    const job = await a.scan({ scan_types: ["opnsense"] });
    expect(job).toMatchObject({
      status: "queued",
      scan_types: ["opnsense"],
      targets: [],
      target_cidr: null,
      label: "OPNsense ARP table and DHCP leases",
    });
    const row = await runQueued(job.id);
    expect(row).toMatchObject({ status: "completed", error_text: null, hosts_found: 5, hosts_new: 4, hosts_updated: 1 });
    const results = await resultsOf(job.id);
    expect(results.map((r) => [r.ip_address, r.mac_address, r.hostname, r.sources])).toEqual([
      ["192.0.2.1", "00:0d:b9:4a:1c:11", null, ["opnsense_arp"]],
      ["192.0.2.10", "00:0d:b9:4a:1c:10", "nas", ["opnsense_arp", "opnsense_dhcp"]],
      ["192.0.2.21", "b8:27:eb:12:34:56", "pi-hole", ["opnsense_arp", "opnsense_dhcp"]],
      ["192.0.2.30", "52:54:00:aa:bb:cc", null, ["opnsense_arp"]],
      ["192.0.2.50", "00:1b:a9:00:00:01", "printer", ["opnsense_dhcp"]],
    ]);
    expect(results[1]).toMatchObject({
      state: "matched",
      matched_entity_type: "hardware",
      matched_entity_id: nas,
      vendor: "PC Engines (OUI table)",
    });
    expect(results[2]!.vendor).toBeNull(); // no OUI row: the firewall's own guess is not copied
    expect(fw.requests.map((r) => r.path)).toEqual(["/api/diagnostics/interface/getArp", "/api/dhcpv4/leases/searchLease"]);
    const logs = await (await a.req("GET", `discovery/jobs/${job.id}/logs?level=debug`, a.viewer)).json();
    expect(logs.map((l: { message: string }) => l.message)).toContain("192.0.2.10 00:0d:b9:4a:1c:10 on igb1 (LAN), lease active (dynamic)");
    expect(JSON.stringify(logs)).not.toContain(FAKE_OPNSENSE_SECRET);
    const api = await (await a.req("GET", `discovery/jobs/${job.id}/results`, a.viewer)).json();
    expect(api.items).toHaveLength(5);
  });

  it("reads Kea's leases on a firewall without the dhcpv4 module", async () => {
    fw.state.kea = true;
    try {
      const job = await a.scan({ scan_types: ["opnsense"] });
      expect(await runQueued(job.id)).toMatchObject({ status: "completed", hosts_found: 6 });
      const results = await resultsOf(job.id);
      expect(results.filter((r) => r.sources.includes("opnsense_dhcp")).map((r) => [r.ip_address, r.hostname])).toEqual([
        ["192.0.2.110", "vm-a"],
        ["192.0.2.111", "vm-b"],
      ]);
    } finally {
      fw.state.kea = false;
    }
  });

  it("fails the job saying the firewall refused the key (reason firewall_refused), with no result", async () => {
    await firewall({ firewall_api_secret: "wrong-secret" });
    try {
      const job = await a.scan({ scan_types: ["opnsense"] });
      expect(await runQueued(job.id)).toMatchObject({
        status: "failed",
        error_reason: "firewall_refused",
        error_text: "OPNsense refused the API key (HTTP 401)",
        hosts_found: 0,
      });
    } finally {
      await firewall({ firewall_api_secret: FAKE_OPNSENSE_SECRET });
    }
  });

  it("runs from a profile without targets, and refuses a profile with targets", async () => {
    const bad = await a.req("POST", "discovery/profiles", a.admin, { name: "fw-bad", scan_types: ["opnsense"], cidr: "127.0.0.0/30" });
    expect(bad.status).toBe(422);
    expect((await bad.json()).fields.cidr).toMatch(/takes no targets/);
    const ports = await a.req("POST", "discovery/profiles", a.admin, { name: "fw-ports", scan_types: ["opnsense"], tcp_ports: [22] });
    expect(ports.status).toBe(422);
    expect((await ports.json()).fields.tcp_ports).toMatch(/no targets, ports/);
    const created = await a.req("POST", "discovery/profiles", a.admin, { name: "firewall", scan_types: ["opnsense"] });
    expect(created.status).toBe(201);
    const run = await a.req("POST", `discovery/profiles/${(await created.json()).id}/run`, a.admin);
    expect(run.status).toBe(201);
    const job = await run.json();
    expect(job).toMatchObject({ scan_types: ["opnsense"], targets: [], target_cidr: null });
    expect(await runQueued(job.id)).toMatchObject({ status: "completed", hosts_found: 5 });
  });
});

describe("POST /discovery/jobs/{job_id}/enrich", () => {
  it("answers 404 for an unknown job, 400 for a job of another type, without addresses or without private ones, 403 for a viewer", async () => {
    await closeOpenJobs();
    const [{ n: before }] = (await a.t.sql`select count(*)::int as n from scan_jobs`) as [{ n: number }];
    const missing = await enrich(999_999);
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toMatch(/Job not found/);
    const sweep = await a.job({ status: "completed", scan_types: ["icmp", "tcp"] });
    const other = await enrich(sweep);
    expect(other.status).toBe(400);
    expect((await other.json()).detail).toMatch(/is not an OPNsense job/);
    const empty = await a.job({ status: "completed", scan_types: ["opnsense"], targets: [], target_cidr: null });
    expect((await enrich(empty)).status).toBe(400);
    expect((await (await enrich(empty)).json()).detail).toMatch(/has no IP addresses to enrich/);
    // The recorded firewall's hosts are in TEST-NET-1 (192.0.2.0/24): not private.
    const publicOnly = await a.job({ status: "completed", scan_types: ["opnsense"], targets: [], target_cidr: null });
    await a.result(publicOnly, { ip_address: "192.0.2.10", sources: ["opnsense_arp"] });
    await a.result(publicOnly, { ip_address: "8.8.8.8", sources: ["opnsense_arp"] });
    const noPrivate = await enrich(publicOnly);
    expect(noPrivate.status).toBe(400);
    expect((await noPrivate.json()).detail).toMatch(/no private IP addresses to enrich: none of its 2 addresses/);
    expect((await enrich(publicOnly, undefined, a.viewer)).status).toBe(403);
    const [{ n: after }] = (await a.t.sql`select count(*)::int as n from scan_jobs`) as [{ n: number }];
    expect(after).toBe(before + 3);
  });

  it("answers 409 when nmap is asked for and the worker found it missing, 422 for a bad body; nothing queued", async () => {
    const job = await a.job({ status: "completed", scan_types: ["opnsense"], targets: [], target_cidr: null });
    await a.result(job, { ip_address: "127.0.0.172", sources: ["opnsense_arp"] });
    const [{ n: before }] = (await a.t.sql`select count(*)::int as n from scan_jobs`) as [{ n: number }];
    await a.readiness({ nmap: "unavailable" });
    const conflict = await enrich(job, { scan_types: ["nmap"] });
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).detail).toMatch(/nmap is disabled/);
    await a.readiness();
    for (const [body, field] of [
      [{ scan_types: ["opnsense"] }, "scan_types"],
      [{ tcp_ports: [0] }, "tcp_ports.0"],
      [{ colour: "red" }, "colour"],
      [{ ports_preset: "all" }, "ports_preset"],
    ] as const) {
      const res = await enrich(job, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((await res.json()).fields)).toContain(field);
    }
    const [{ n: after }] = (await a.t.sql`select count(*)::int as n from scan_jobs`) as [{ n: number }];
    expect(after).toBe(before);
  });

  it("without a body queues the engine's default follow-up of the private addresses", async () => {
    await closeOpenJobs();
    const job = await a.job({ status: "completed", scan_types: ["opnsense"], targets: [], target_cidr: null });
    await a.result(job, { ip_address: "127.0.0.172", sources: ["opnsense_arp"] });
    const res = await enrich(job);
    expect(res.status).toBe(201);
    const out = await res.json();
    expect(out).toMatchObject({
      status: "queued",
      targets: ["127.0.0.172"],
      scan_types: ["icmp", "tcp", "banner", "http", "dns"],
      addresses_total: 1,
      label: `Enrichment of OPNsense job ${job}`,
    });
    expect((await a.req("DELETE", `discovery/jobs/${out.id}`, a.admin)).status).toBe(200);
  });

  it("scans the private hosts a firewall read found for their ports and banners, audited", async () => {
    await closeOpenJobs();
    const [ssh, web] = peers as [Peer, Peer];
    fw.state.answers["/api/diagnostics/interface/getArp"] = [
      {
        mac: "02:00:00:00:01:72",
        ip: "127.0.0.172",
        intf: "igb1",
        expired: false,
        permanent: false,
        hostname: "bastion.lab.lan",
        intf_description: "LAN",
      },
      {
        mac: "02:00:00:00:01:73",
        ip: "127.0.0.173",
        intf: "igb1",
        expired: false,
        permanent: false,
        hostname: "",
        intf_description: "LAN",
      },
      {
        mac: "02:00:00:00:01:74",
        ip: "127.0.0.174",
        intf: "igb1",
        expired: true,
        permanent: false,
        hostname: "gone",
        intf_description: "LAN",
      },
      {
        mac: "02:00:00:00:00:99",
        ip: "192.0.2.99",
        intf: "igb0",
        expired: false,
        permanent: false,
        hostname: "upstream",
        intf_description: "WAN",
      },
    ];
    fw.state.answers["/api/dhcpv4/leases/searchLease"] = { total: 0, rowCount: 0, current: 1, rows: [] };
    try {
      const read = await a.scan({ scan_types: ["opnsense"] });
      expect(await runQueued(read.id)).toMatchObject({ status: "completed", hosts_found: 3 });
      const res = await enrich(read.id, { scan_types: ["icmp", "tcp", "banner", "http"], tcp_ports: [ssh.port, web.port] });
      expect(res.status).toBe(201);
      const follow = await res.json();
      expect(follow).toMatchObject({
        status: "queued",
        targets: ["127.0.0.172", "127.0.0.173"],
        addresses_total: 2,
        tcp_ports: [ssh.port, web.port].sort((x, y) => x - y),
      });
      const [opts] = await a.t.sql`select options from scan_jobs where id = ${follow.id}`;
      expect(opts!.options).toMatchObject({ enriches_job_id: read.id });
      expect(await runQueued(follow.id)).toMatchObject({ status: "completed", hosts_found: 2 });
      const results = await resultsOf(follow.id);
      expect(results.map((r) => r.ip_address)).toEqual(["127.0.0.172", "127.0.0.173"]);
      expect(results[0]!.open_ports).toEqual([
        expect.objectContaining({ port: ssh.port, banner: expect.stringContaining("SSH-2.0-OpenSSH_9.6") }),
      ]);
      expect(results[1]!.open_ports).toEqual([expect.objectContaining({ port: web.port, http_title: "Printer panel" })]);
      const [audit] = await a.t.sql`select entity_id, diff from audit_log where action = 'discovery.job.enrich' order by id desc limit 1`;
      expect(audit).toMatchObject({ entity_id: String(read.id) });
      expect(audit!.diff.after).toMatchObject({ enrich_job_id: follow.id, addresses: 2 });
    } finally {
      fw.state.answers = {};
    }
  });

  it("answers 429 while three server scans are open", async () => {
    await closeOpenJobs();
    const job = await a.job({ status: "completed", scan_types: ["opnsense"], targets: [], target_cidr: null });
    await a.result(job, { ip_address: "127.0.0.172", sources: ["opnsense_arp"] });
    for (let i = 0; i < 3; i++) await a.job({ status: "queued" });
    const res = await enrich(job);
    expect(res.status).toBe(429);
    await closeOpenJobs();
  });
});
