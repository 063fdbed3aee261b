// POST /discovery/scan, GET /discovery/jobs, /jobs/{id}, DELETE /jobs/{id} and /jobs/{id}/logs: the job
// rows a scan request makes (one per CIDR), every bad input a 422 naming its field that writes nothing,
// the open-scan limit, nmap refused while missing, agent refusals, the sealed SNMP community, cancel's
// compare-and-set and its events. No worker runs here: jobs stay queued and nothing is sent anywhere.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openJobCommunity } from "../../../shared/verbs/discovery/jobs/snmp-community.ts";
import { eventually, lan } from "../agents/support.ts";
import { createDiscoveryActors, type DiscoveryActors } from "./support.ts";

let a: DiscoveryActors;
beforeAll(async () => {
  a = await createDiscoveryActors();
});
afterAll(async () => a.t.close());

const jobCount = async () => (await a.t.sql<{ n: number }[]>`select count(*)::int as n from scan_jobs`)[0]!.n;
/** Ends every open job, so the open-scan limit does not carry from one test to the next. */
const closeOpenJobs = () => a.t.sql`update scan_jobs set status = 'completed', completed_at = now() where status in ('queued', 'running')`;

describe("POST /discovery/scan", () => {
  it("queues one job for a targets list, with the defaults, audited and announced to the worker and the UI", async () => {
    await closeOpenJobs();
    const control = await a.listen("discovery_control");
    const events = await a.listen("discovery");
    const res = await a.req("POST", "discovery/scan", a.admin, {
      targets: ["127.0.0.0/28", "127.0.1.1-127.0.1.4", "127.0.2.9"],
      exclude: ["127.0.0.5"],
      label: "lab",
    });
    expect(res.status).toBe(201);
    const job = await res.json();
    expect(job).toMatchObject({
      profile_id: null,
      scan_agent_id: null,
      source_type: "manual",
      label: "lab",
      target_cidr: "127.0.0.0/28",
      targets: ["127.0.0.0/28", "127.0.1.1-127.0.1.4", "127.0.2.9"],
      exclude: ["127.0.0.5"],
      vlan_ids: [],
      network_ids: [],
      scan_types: ["icmp", "tcp", "dns", "arp"],
      scan_types_json: '["icmp","tcp","dns","arp"]',
      tcp_ports: [21, 22, 23, 25, 53, 80, 110, 139, 143, 443, 445, 3389, 5900, 8006, 8080, 8443, 9100],
      status: "queued",
      started_at: null,
      completed_at: null,
      addresses_total: 14 - 1 + 4 + 1,
      addresses_done: 0,
      hosts_found: 0,
      triggered_by: "admin@example.com",
      snmp_community_set: false,
    });
    const [audit] = await a.t.sql`select diff from audit_log where action = 'discovery.job.create' and entity_id = ${String(job.id)}`;
    expect(audit!.diff.after).toMatchObject({ id: job.id, targets: job.targets, status: "queued" });
    await eventually(() => control.payloads.length > 0 && events.payloads.length > 0);
    expect(control.payloads).toContainEqual({ type: "job_queued", job_id: job.id, scan_agent_id: null });
    expect(events.payloads).toContainEqual({ type: "job_update", job });
    await control.stop();
    await events.stop();
  });

  it("makes one job per CIDR of cidrs (and cidr) and answers them as an array", async () => {
    await closeOpenJobs();
    const jobs = await a.scan({ cidr: "127.0.3.0/30", cidrs: ["127.0.4.0/29"], ports_preset: "web", scan_types: ["tcp", "banner", "tcp"] });
    expect(Array.isArray(jobs)).toBe(true);
    expect(jobs.map((j: any) => [j.target_cidr, j.addresses_total])).toEqual([
      ["127.0.3.0/30", 2],
      ["127.0.4.0/29", 6],
    ]);
    expect(jobs[0].scan_types).toEqual(["tcp", "banner"]);
    expect(jobs[1].tcp_ports).toEqual([80, 443, 3000, 5000, 8000, 8006, 8080, 8081, 8443, 8888, 9000, 9090, 9443]);
    const [row] = await a.t.sql`select options from scan_jobs where id = ${jobs[0].id}`;
    expect(row!.options).toEqual({ ports_preset: "web" });
  });

  it("refuses every bad input with 422 naming the field, writing nothing", async () => {
    await closeOpenJobs();
    const before = await jobCount();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{}, "targets", /unbounded/],
      [{ targets: [] }, "targets", /unbounded/],
      [{ targets: ["8.8.8.0/24"] }, "targets.0", /outside the allowed targets/],
      [{ targets: ["127.0.0.1", "127.0.0.300"] }, "targets.1", /not an IPv4 address/],
      [{ cidr: "127.0.0.0/19" }, "cidr", /8190 addresses; at most 4096/],
      [{ cidrs: ["127.0.0.0/24", "127.1.0.0/16"] }, "cidrs.1", /at most 4096/],
      [{ cidrs: ["127.0.0.7"] }, "cidrs.0", /not a CIDR/],
      [{ targets: ["127.0.0.4/30"], exclude: ["127.0.0.0/29"] }, "targets", /exclusions leave no address/],
      [{ targets: ["127.0.0.1"], exclude: ["nope"] }, "exclude.0", /not an IPv4/],
      [{ targets: ["127.0.0.1"], ports_preset: "all" }, "ports_preset", /Unknown ports preset 'all'/],
      [{ targets: ["127.0.0.1"], tcp_ports: [22, 0] }, "tcp_ports.1", /at least 1/i],
      [{ targets: ["127.0.0.1"], scan_types: ["icmp", "teleport"] }, "scan_types", /Unknown scan type 'teleport'\. Known types:/],
      [{ targets: ["127.0.0.1"], scan_types: ["proxmox"] }, "scan_types", /not available in this build/],
      [{ targets: ["127.0.0.1"], scan_types: ["agent_connect"] }, "scan_types", /choose scan_agent_id/],
      [{ targets: ["127.0.0.1"], scan_types: ["docker"] }, "scan_types", /own route/],
      [{ targets: ["127.0.0.1"], scan_types: [], colour: "red" }, "colour", /Unknown field/],
      [{ cidrs: Array.from({ length: 11 }, (_, i) => `127.0.${i}.0/30`) }, "cidrs", /At most 10/],
      [{ targets: ["127.0.0.1"], host_timeout_ms: 5 }, "host_timeout_ms", /at least 100/],
      [{ targets: ["127.0.0.1"], nmap_arguments: "-sV -oN /tmp/out" }, "nmap_arguments", /'-oN' is not allowed/],
    ];
    for (const [body, field, msg] of cases) {
      const res = await a.req("POST", "discovery/scan", a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const err = await res.json();
      expect(err.error_code).toBe("VALIDATION_ERROR");
      expect(Object.keys(err.fields), JSON.stringify(body)).toContain(field);
      expect(err.fields[field], JSON.stringify(body)).toMatch(msg);
    }
    expect(await jobCount()).toBe(before);
  });

  it("refuses nmap while the worker found it missing, and takes it once it is there", async () => {
    await closeOpenJobs();
    await a.readiness({ nmap: "unavailable" });
    const res = await a.req("POST", "discovery/scan", a.admin, { targets: ["127.0.0.1"], scan_types: ["nmap"], nmap_arguments: "-sV -T4" });
    expect(res.status).toBe(422);
    expect((await res.json()).fields.scan_types).toMatch(/nmap is not installed/);
    await a.readiness();
    const job = await a.scan({ targets: ["127.0.0.1"], scan_types: ["nmap"], nmap_arguments: "-sV -T4" });
    expect(job.scan_types).toEqual(["nmap"]);
    const [row] = await a.t.sql`select options from scan_jobs where id = ${job.id}`;
    expect(row!.options).toEqual({ nmap_arguments: "-sV -T4" });
  });

  it("answers 429 Too many scans while three server scans are open; agents' jobs and ended jobs do not count", async () => {
    await closeOpenJobs();
    await a.job({ status: "running" });
    await a.job({ status: "queued" });
    await a.job({ status: "failed" });
    const agent = await a.agent({ status: "active" });
    await a.job({ status: "queued", scan_agent_id: agent });
    await a.scan({ targets: ["127.0.0.1"] });
    const before = await jobCount();
    const res = await a.req("POST", "discovery/scan", a.admin, { targets: ["127.0.0.2"] });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(await res.json()).toMatchObject({
      error_code: "RATE_LIMITED",
      detail: expect.stringMatching(/^Too many scans/),
      retry_after: 30,
    });
    expect(await jobCount()).toBe(before);
  });

  it("refuses an agent that may not run the job with a 422 naming the reason beside the message", async () => {
    await closeOpenJobs();
    const pending = await a.agent({ status: "pending" });
    const res = await a.req("POST", "discovery/scan", a.admin, {
      targets: ["192.168.7.0/28"],
      scan_agent_id: pending,
      scan_types: ["agent_connect"],
    });
    expect(res.status).toBe(422);
    const err = await res.json();
    expect(err).toMatchObject({ error_code: "VALIDATION_ERROR", reason: "agent_inactive" });
    expect(typeof err.detail).toBe("string");
    expect(err.fields.scan_agent_id).toBe(err.detail);
    const server = await a.req("POST", "discovery/scan", a.admin, {
      targets: ["192.168.7.0/28"],
      scan_agent_id: pending,
      scan_types: ["tcp"],
    });
    expect(server.status).toBe(422);
    expect((await server.json()).fields.scan_types).toMatch(/runs on the server only/);
    const missing = await a.req("POST", "discovery/scan", a.admin, { targets: ["192.168.7.0/28"], scan_agent_id: 999_999 });
    expect(await missing.json()).toMatchObject({ reason: "agent_missing" });
  });

  it("queues an eligible agent's job (not counted against the server's open scans)", async () => {
    await closeOpenJobs();
    for (let i = 0; i < 3; i++) await a.job({ status: "queued" });
    const agent = await a.agent({
      status: "active",
      online: true,
      networks: lan("192.168.40.10/24"),
      readiness: [{ collector: "discovery.tcp", state: "ready", reason: null, remediation: null, missing: [] }],
    });
    const control = await a.listen("discovery_control");
    const job = await a.scan({ targets: ["192.168.40.0/28"], scan_agent_id: agent });
    expect(job).toMatchObject({ scan_agent_id: agent, scan_types: ["agent_connect"], status: "queued", addresses_total: 14 });
    await eventually(() => control.payloads.length > 0);
    expect(control.payloads).toContainEqual({ type: "job_queued", job_id: job.id, scan_agent_id: agent });
    await control.stop();
  });

  it("seals the SNMP community bound to the job; it is never answered, audited or announced", async () => {
    await closeOpenJobs();
    const events = await a.listen("discovery");
    const job = await a.scan({ targets: ["127.0.0.9"], scan_types: ["snmp"], snmp_community: "s3cret-community", snmp_port: 1161 });
    expect(job.snmp_community_set).toBe(true);
    expect(JSON.stringify(job)).not.toContain("s3cret");
    const [row] = await a.t.sql`select snmp_community, options, profile_id from scan_jobs where id = ${job.id}`;
    expect(row!.snmp_community).toMatch(/^vault:v1:/);
    expect(row!.options).toEqual({ snmp_port: 1161, snmp_version: "2c" });
    expect(
      await openJobCommunity(a.t.runtime.deps.database.lease().db, a.t.runtime.deps.vault, {
        id: job.id,
        profile_id: null,
        snmp_community: row!.snmp_community,
      }),
    ).toBe("s3cret-community");
    // Bound to the row: the same ciphertext under another job's id does not open.
    await expect(
      openJobCommunity(a.t.runtime.deps.database.lease().db, a.t.runtime.deps.vault, {
        id: job.id + 1,
        profile_id: null,
        snmp_community: row!.snmp_community,
      }),
    ).rejects.toThrow();
    const audits = await a.t.sql`select diff::text as d from audit_log where entity_type = 'scan_job' and entity_id = ${String(job.id)}`;
    expect(audits.length).toBeGreaterThan(0);
    for (const x of audits) expect(x.d).not.toContain("s3cret");
    await eventually(() => events.payloads.length > 0);
    expect(events.payloads).toContainEqual({ type: "job_update", job });
    expect(JSON.stringify(events.payloads)).not.toContain("s3cret");
    await events.stop();
  });

  it("counts in the rate category scan: a second request from one client within the minute is 429", async () => {
    await closeOpenJobs();
    const send = () =>
      a.t.app.request("/api/v1/discovery/scan", {
        method: "POST",
        body: JSON.stringify({ targets: ["127.0.0.1"] }),
        headers: { "content-type": "application/json", authorization: `Bearer ${a.admin}`, "x-test-peer": "10.200.0.1" },
      });
    expect((await send()).status).toBe(201);
    const second = await send();
    expect(second.status).toBe(429);
    expect((await second.json()).error_code).toBe("RATE_LIMITED");
  });

  it("needs write:discovery: a viewer and an editor get 403, anonymous 401", async () => {
    const body = { targets: ["127.0.0.1"] };
    expect((await a.req("POST", "discovery/scan", a.viewer, body)).status).toBe(403);
    expect((await a.req("POST", "discovery/scan", a.editor, body)).status).toBe(403);
    expect((await a.req("POST", "discovery/scan", undefined, body)).status).toBe(401);
  });
});

describe("SVC_DISCOVERY_ALLOWED_TARGETS", () => {
  it("narrows where a scan may reach", async () => {
    const b = await createDiscoveryActors({ SVC_DISCOVERY_ALLOWED_TARGETS: "127.0.5.0/24" });
    try {
      const outside = await b.req("POST", "discovery/scan", b.admin, { targets: ["127.0.5.1", "127.0.6.1"] });
      expect(outside.status).toBe(422);
      expect((await outside.json()).fields["targets.1"]).toMatch(/outside the allowed targets \(127\.0\.5\.0\/24\)/);
      const inside = await b.scan({ targets: ["127.0.5.0/29"] });
      expect(inside.addresses_total).toBe(6);
    } finally {
      await b.t.close();
    }
  });
});

describe("GET /discovery/jobs and /jobs/{id}", () => {
  it("lists jobs in the list envelope with filters, newest first on request, to any reader", async () => {
    const p = await a.profile();
    const mine = await a.job({ status: "completed", profile_id: p, source_type: "scheduled", label: "nightly-sweep" });
    const res = await a.req("GET", "discovery/jobs?limit=2", a.viewer);
    expect(res.status).toBe(200);
    const page = await res.json();
    expect(page).toMatchObject({ limit: 2, offset: 0, sort: "id", direction: "desc" });
    expect(page.total).toBeGreaterThan(2);
    expect(page.items[0].id).toBeGreaterThan(page.items[1].id);
    const oldest = await (await a.req("GET", "discovery/jobs?direction=asc&limit=1", a.viewer)).json();
    expect(oldest.items[0].id).toBeLessThan(page.items[1].id);
    const filtered = await (await a.req("GET", `discovery/jobs?profile_id=${p}&status=completed&source_type=scheduled`, a.viewer)).json();
    expect(filtered.items.map((j: any) => j.id)).toEqual([mine]);
    const searched = await (await a.req("GET", "discovery/jobs?q=NIGHTLY", a.viewer)).json();
    expect(searched.items.map((j: any) => j.id)).toEqual([mine]);
    expect((await a.req("GET", "discovery/jobs?status=done", a.viewer)).status).toBe(422);
  });

  it("answers one job, and 404 Job not found for a missing one", async () => {
    const id = await a.job({ status: "running", targets: ["127.0.0.0/30"] });
    const res = await a.req("GET", `discovery/jobs/${id}`, a.viewer);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, status: "running", targets: ["127.0.0.0/30"], scan_types_json: '["icmp","tcp"]' });
    const missing = await a.req("GET", "discovery/jobs/99999999", a.viewer);
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toMatch(/^Job not found/);
    expect((await a.req("GET", "discovery/jobs/abc", a.viewer)).status).toBe(422);
  });
});

describe("DELETE /discovery/jobs/{id}", () => {
  it("cancels an open job once (compare-and-set), telling the worker or agent and the UI", async () => {
    const agent = await a.agent({ status: "active" });
    const id = await a.job({ status: "running", scan_agent_id: agent, dispatch_id: "ab".repeat(16) });
    const control = await a.listen("discovery_control");
    const events = await a.listen("discovery");
    const res = await a.req("DELETE", `discovery/jobs/${id}`, a.admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ cancelled: true });
    const [row] = await a.t.sql`select status, error_reason, completed_at from scan_jobs where id = ${id}`;
    expect(row).toMatchObject({ status: "cancelled", error_reason: "cancelled_by_user" });
    expect(row!.completed_at).not.toBeNull();
    await eventually(() => control.payloads.length > 0 && events.payloads.length > 0);
    expect(control.payloads).toContainEqual({ type: "job_cancel", job_id: id, scan_agent_id: agent, dispatch_id: "ab".repeat(16) });
    expect(events.payloads[0]).toMatchObject({ type: "job_update", job: { id, status: "cancelled" } });
    const again = await a.req("DELETE", `discovery/jobs/${id}`, a.admin);
    expect(again.status).toBe(409);
    expect((await again.json()).detail).toBe("Job is already cancelled");
    const [audit] = await a.t
      .sql`select count(*)::int as n from audit_log where action = 'discovery.job.cancel' and entity_id = ${String(id)}`;
    expect(audit!.n).toBe(1);
    await control.stop();
    await events.stop();
  });

  it("answers 409 for an ended job (kept as it was), 404 for a missing one, 403 without delete:discovery", async () => {
    const done = await a.job({ status: "completed" });
    const res = await a.req("DELETE", `discovery/jobs/${done}`, a.admin);
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toBe("Job is already completed");
    expect((await a.t.sql`select status from scan_jobs where id = ${done}`)[0]!.status).toBe("completed");
    expect((await a.req("DELETE", "discovery/jobs/99999999", a.admin)).status).toBe(404);
    const open = await a.job({ status: "queued" });
    expect((await a.req("DELETE", `discovery/jobs/${open}`, a.editor)).status).toBe(403);
    expect((await a.t.sql`select status from scan_jobs where id = ${open}`)[0]!.status).toBe("queued");
  });
});

describe("GET /discovery/jobs/{id}/logs", () => {
  it("answers the log oldest first, filtered by level in any case, at most limit", async () => {
    const id = await a.job({ status: "running" });
    await a.log(id, "INFO", "sweep started", "sweep");
    await a.log(id, "DEBUG", "probing 127.0.0.1", "sweep");
    await a.log(id, "WARNING", "dns timed out", "dns");
    await a.log(id, "INFO", "sweep done", "sweep");
    const all = await (await a.req("GET", `discovery/jobs/${id}/logs`, a.viewer)).json();
    expect(all.map((l: any) => l.message)).toEqual(["sweep started", "probing 127.0.0.1", "dns timed out", "sweep done"]);
    expect(all[0]).toMatchObject({ scan_job_id: id, level: "INFO", phase: "sweep", details: null });
    const info = await (await a.req("GET", `discovery/jobs/${id}/logs?level=info&limit=1`, a.viewer)).json();
    expect(info.map((l: any) => l.message)).toEqual(["sweep started"]);
    expect((await a.req("GET", `discovery/jobs/${id}/logs?level=loud`, a.viewer)).status).toBe(422);
    expect((await a.req("GET", "discovery/jobs/99999999/logs", a.viewer)).status).toBe(404);
  });
});
