// GET /discovery/status and /readiness, POST /discovery/pause and /resume, GET /discovery/vendor-catalog,
// and that the discovery routes are in the OpenAPI document with their tag and errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimScanJobs } from "../../../shared/verbs/discovery/run/claim-jobs.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { cryptoRandom } from "../../../shared/clock.ts";
import { eventually } from "../agents/support.ts";
import { createDiscoveryActors, type DiscoveryActors } from "./support.ts";

let a: DiscoveryActors;
beforeAll(async () => {
  a = await createDiscoveryActors();
});
afterAll(async () => a.t.close());

describe("GET /discovery/readiness", () => {
  it("says unknown until the worker stored a probe, then answers it (admin only)", async () => {
    const res = await a.req("GET", "discovery/readiness", a.admin);
    expect(res.status).toBe(200);
    const unknown = await res.json();
    expect(unknown).toMatchObject({ state: "unknown", checked_at: null, helper_installed: false });
    expect(unknown.capabilities.map((c: any) => [c.key, c.state])).toEqual(
      ["icmp", "tcp", "dns", "arp", "nmap", "snmp", "docker"].map((k) => [k, "unknown"]),
    );
    await a.readiness({ nmap: "unavailable", docker: "degraded" });
    const known = await (await a.req("GET", "discovery/readiness", a.admin)).json();
    expect(known.state).toBe("known");
    expect(known.capabilities.find((c: any) => c.key === "nmap")).toMatchObject({
      state: "unavailable",
      reason_code: "not_installed",
      last_healed_at: null,
    });
    expect((await a.req("GET", "discovery/readiness", a.viewer)).status).toBe(403);
  });
});

describe("GET /discovery/status", () => {
  it("answers open jobs, pending results, the last scan, the next scheduled run and the probe's findings", async () => {
    await a.readiness({ docker: "ready" });
    const running = await a.job({ status: "running" });
    const queued = await a.job({ status: "queued" });
    const done = await a.job({ status: "completed" });
    await a.result(done, { ip_address: "127.0.0.1" });
    await a.result(done, { ip_address: "127.0.0.2", merge_status: "merged" });
    const next = new Date(Date.now() + 3_600_000);
    await a.profile({ schedule_cron: "0 * * * *", next_run_at: next });
    await a.profile({ schedule_cron: "0 * * * *", next_run_at: new Date(Date.now() + 60_000), paused_at: new Date() });
    const res = await a.req("GET", "discovery/status", a.viewer);
    expect(res.status).toBe(200);
    const s = await res.json();
    expect(s).toMatchObject({
      discovery_enabled: true,
      paused: false,
      pending_results: 1,
      next_scheduled: next.toISOString(),
      discovery_mode: "safe",
      effective_mode: "safe",
      net_raw_capable: true,
      docker_available: true,
      docker_container_count: 0,
    });
    expect(s.active_jobs.map((j: any) => j.id)).toEqual([queued, running]);
    expect(s.last_scan).not.toBeNull();
  });
});

describe("POST /discovery/pause and /resume", () => {
  it("holds the fleet: the worker claims nothing while paused; audited once per change and announced", async () => {
    const control = await a.listen("discovery_control");
    const res = await a.req("POST", "discovery/pause", a.admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ paused: true });
    expect(await (await a.req("POST", "discovery/pause", a.admin)).json()).toEqual({ paused: true });
    const status = await (await a.req("GET", "discovery/status", a.viewer)).json();
    expect(status).toMatchObject({ paused: true, discovery_enabled: false, next_scheduled: null });

    const ctx = systemContext({ db: a.t.runtime.deps.database.lease().db, clock: a.clock, random: cryptoRandom });
    await a.job({ status: "queued" });
    expect(await claimScanJobs({ ctx, input: { owner: "test", limit: 10 } })).toEqual([]);

    expect(await (await a.req("POST", "discovery/resume", a.admin)).json()).toEqual({ paused: false });
    expect((await claimScanJobs({ ctx, input: { owner: "test", limit: 10 } })).length).toBeGreaterThan(0);

    const audits = await a.t.sql`select action from audit_log where action in ('discovery.pause', 'discovery.resume') order by id`;
    expect(audits.map((r) => r.action)).toEqual(["discovery.pause", "discovery.resume"]);
    await eventually(() => control.payloads.length >= 2);
    expect(control.payloads).toEqual([
      { type: "paused", paused: true },
      { type: "resumed", paused: false },
    ]);
    await control.stop();
    expect((await a.req("POST", "discovery/pause", a.editor)).status).toBe(403);
  });
});

describe("GET /discovery/vendor-catalog", () => {
  it("lists the knowledge base's vendors with stable keys and counts", async () => {
    await a.t
      .sql`insert into kb_oui (prefix, vendor) values ('AA:BB:01', 'Ubiquiti Inc.'), ('AA:BB:02', 'Ubiquiti Inc.'), ('AA:BB:03', 'Raspberry Pi Ltd')`;
    await a.t
      .sql`insert into kb_hostnames (pattern, vendor, device_type) values ('^unifi-', 'Ubiquiti Inc.', 'access_point'), ('^usw-', 'Ubiquiti Inc.', 'switch'), ('^nas', null, 'nas')`;
    const res = await a.req("GET", "discovery/vendor-catalog", a.viewer);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.vendors).toEqual([
      { key: "raspberry-pi-ltd", name: "Raspberry Pi Ltd", oui_prefixes: 1, hostname_patterns: 0, device_types: [] },
      { key: "ubiquiti-inc", name: "Ubiquiti Inc.", oui_prefixes: 2, hostname_patterns: 2, device_types: ["access_point", "switch"] },
    ]);
    expect(body.total).toBe(2);
    expect((await a.req("GET", "discovery/vendor-catalog")).status).toBe(401);
  });
});

describe("OpenAPI", () => {
  it("documents every route of jobs, profiles and control under the discovery tag with their errors", async () => {
    const doc = await (await a.req("GET", "/api/openapi.json")).json();
    const ops: [string, string][] = [
      ["/api/v1/discovery/scan", "post"],
      ["/api/v1/discovery/jobs", "get"],
      ["/api/v1/discovery/jobs/{job_id}", "get"],
      ["/api/v1/discovery/jobs/{job_id}", "delete"],
      ["/api/v1/discovery/jobs/{job_id}/logs", "get"],
      ["/api/v1/discovery/profiles", "get"],
      ["/api/v1/discovery/profiles", "post"],
      ["/api/v1/discovery/profiles/{profile_id}", "patch"],
      ["/api/v1/discovery/profiles/{profile_id}", "delete"],
      ["/api/v1/discovery/profiles/{profile_id}/run", "post"],
      ["/api/v1/discovery/profiles/{profile_id}/pause", "post"],
      ["/api/v1/discovery/profiles/{profile_id}/resume", "post"],
      ["/api/v1/discovery/status", "get"],
      ["/api/v1/discovery/readiness", "get"],
      ["/api/v1/discovery/pause", "post"],
      ["/api/v1/discovery/resume", "post"],
      ["/api/v1/discovery/vendor-catalog", "get"],
    ];
    for (const [path, method] of ops) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.tags).toEqual(["discovery"]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["401", "403", "429"]));
    }
    expect(Object.keys(doc.paths["/api/v1/discovery/scan"].post.responses)).toEqual(expect.arrayContaining(["201", "422", "429"]));
    expect(Object.keys(doc.paths["/api/v1/discovery/jobs/{job_id}"].delete.responses)).toEqual(
      expect.arrayContaining(["200", "404", "409"]),
    );
  });
});
