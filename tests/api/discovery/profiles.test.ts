// /discovery/profiles: create, list, PATCH, DELETE, run now, pause and resume; the 5-field schedule and its
// next run; the sealed SNMP community; and the discovery_profiles job run with a driven clock (due
// profiles start "scheduled" jobs and move on, paused ones and the fleet-wide pause start none).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDueProfiles } from "../../../shared/verbs/discovery/profiles/scheduled-runs.ts";
import { openJobCommunity } from "../../../shared/verbs/discovery/jobs/snmp-community.ts";
import { findJob } from "../../../shared/verbs/jobs/registry.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { cryptoRandom } from "../../../shared/clock.ts";
import { silentLogger } from "../../../shared/logger.ts";
import { eventually, lan } from "../agents/support.ts";
import { createDiscoveryActors, type DiscoveryActors } from "./support.ts";

let a: DiscoveryActors;
beforeAll(async () => {
  a = await createDiscoveryActors();
  // A whole minute, so cron slots fall at known instants.
  a.clock.at = new Date("2026-11-25T10:00:30.000Z");
});
afterAll(async () => a.t.close());

const closeOpenJobs = () => a.t.sql`update scan_jobs set status = 'completed', completed_at = now() where status in ('queued', 'running')`;

async function create(body: Record<string, unknown>, token = a.admin) {
  const res = await a.req("POST", "discovery/profiles", token, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

const db = () => a.t.runtime.deps.database.lease().db;
const runJob = () => runDueProfiles({ ctx: systemContext({ db: db(), clock: a.clock, random: cryptoRandom }), logger: silentLogger });

describe("POST /discovery/profiles", () => {
  it("creates a profile with the reference's defaults and its next run from the schedule, audited and announced", async () => {
    const events = await a.listen("discovery");
    const p = await create({ name: "lab sweep", cidr: "127.0.0.0/29", schedule_cron: "*/15 * * * *", tcp_ports: [443, 22, 22] });
    expect(p).toMatchObject({
      name: "lab sweep",
      cidr: "127.0.0.0/29",
      targets: ["127.0.0.0/29"],
      exclude: [],
      scan_agent_id: null,
      managed_by: null,
      paused_at: null,
      vlan_ids: [],
      scan_types: ["icmp", "tcp", "dns", "arp"],
      tcp_ports: [22, 443],
      ports_preset: null,
      nmap_arguments: null,
      snmp_version: "2c",
      snmp_port: 161,
      snmp_community_set: false,
      docker_network_types: ["bridge"],
      docker_port_scan: false,
      docker_socket_path: "/var/run/docker.sock",
      schedule_cron: "*/15 * * * *",
      enabled: true,
      last_run: null,
      next_run_at: "2026-11-25T10:15:00.000Z",
    });
    const [audit] = await a.t.sql`select diff from audit_log where action = 'discovery.profile.create' and entity_id = ${String(p.id)}`;
    expect(audit!.diff.after).toMatchObject({ name: "lab sweep", schedule_cron: "*/15 * * * *" });
    await eventually(() => events.payloads.length > 0);
    expect(events.payloads[0]).toMatchObject({ type: "profile_update", action: "created", profile_id: p.id });
    await events.stop();
  });

  it("refuses bad input with 422 naming the field, writing nothing", async () => {
    const before = (await a.t.sql`select count(*)::int as n from discovery_profiles`)[0]!.n;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ cidr: "127.0.0.0/24" }, "name", /.+/],
      [{ name: "x" }, "targets", /unbounded/],
      [{ name: "x", cidr: "8.8.8.0/24" }, "cidr", /outside the allowed/],
      [{ name: "x", targets: ["127.0.0.0/16"] }, "targets", /65534 addresses; at most 4096/],
      [{ name: "x", cidr: "127.0.0.0/24", schedule_cron: "* * * * * *" }, "schedule_cron", /5-field/],
      [{ name: "x", cidr: "127.0.0.0/24", schedule_cron: "61 * * * *" }, "schedule_cron", /not a valid crontab/],
      [{ name: "x", cidr: "127.0.0.0/24", scan_types: ["warp"] }, "scan_types", /Unknown scan type 'warp'/],
      [{ name: "x", cidr: "127.0.0.0/24", scan_types: ["lldp"] }, "scan_types", /lldp-enrich/],
      [{ name: "x", cidr: "127.0.0.0/24", ports_preset: "every" }, "ports_preset", /Unknown ports preset/],
      [{ name: "x", cidr: "127.0.0.0/24", docker_socket_path: "relative.sock" }, "docker_socket_path", /absolute/],
      [{ name: "x", cidr: "127.0.0.0/24", snmp_version: "3" }, "snmp_version", /.+/],
      [{ name: "x", cidr: "127.0.0.0/24", nmap_arguments: "--script vuln" }, "nmap_arguments", /not allowed/],
      [{ name: "x", cidr: "127.0.0.0/24", managed_by: "system", paused_at: "2020-01-01", flavour: 1 }, "flavour", /Unknown field/],
    ];
    for (const [body, field, msg] of cases) {
      const res = await a.req("POST", "discovery/profiles", a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const err = await res.json();
      expect(Object.keys(err.fields), JSON.stringify(body)).toContain(field);
      expect(err.fields[field]).toMatch(msg);
    }
    expect((await a.t.sql`select count(*)::int as n from discovery_profiles`)[0]!.n).toBe(before);
    expect((await a.req("POST", "discovery/profiles", a.viewer, { name: "v", cidr: "127.0.0.0/30" })).status).toBe(403);
  });

  it("takes a docker profile without targets", async () => {
    const p = await create({ name: "docker host", scan_types: ["docker"], docker_network_types: ["bridge", "macvlan"] });
    expect(p).toMatchObject({ targets: [], cidr: null, scan_types: ["docker"], docker_network_types: ["bridge", "macvlan"] });
  });

  it("seals the SNMP community (never returned); PATCH without it keeps it, null clears it", async () => {
    const p = await create({ name: "switches", cidr: "127.0.9.0/30", scan_types: ["snmp"], snmp_community: "sw-secret" });
    expect(p.snmp_community_set).toBe(true);
    expect(JSON.stringify(p)).not.toContain("sw-secret");
    const [row] = await a.t.sql`select snmp_community from discovery_profiles where id = ${p.id}`;
    expect(row!.snmp_community).toMatch(/^vault:v1:/);
    const kept = await (await a.req("PATCH", `discovery/profiles/${p.id}`, a.admin, { name: "core switches" })).json();
    expect(kept).toMatchObject({ name: "core switches", snmp_community_set: true });
    // A job the profile starts carries none of its own: the runner opens the profile's.
    await closeOpenJobs();
    const job = await (await a.req("POST", `discovery/profiles/${p.id}/run`, a.admin)).json();
    expect(job.snmp_community_set).toBe(false);
    const [j] = await a.t.sql`select id, profile_id, snmp_community from scan_jobs where id = ${job.id}`;
    expect(await openJobCommunity(db(), a.t.runtime.deps.vault, j as never)).toBe("sw-secret");
    const cleared = await (await a.req("PATCH", `discovery/profiles/${p.id}`, a.admin, { snmp_community: null })).json();
    expect(cleared.snmp_community_set).toBe(false);
    const audits = await a.t
      .sql`select diff::text as d from audit_log where entity_type = 'discovery_profile' and entity_id = ${String(p.id)}`;
    for (const x of audits) expect(x.d).not.toContain("sw-secret");
  });
});

describe("GET, PATCH and DELETE /discovery/profiles", () => {
  it("lists profiles in the list envelope", async () => {
    await create({ name: "zz-last", cidr: "127.0.10.0/30", enabled: false });
    const page = await (await a.req("GET", "discovery/profiles?limit=100", a.viewer)).json();
    expect(page).toMatchObject({ sort: "name", direction: "asc", offset: 0 });
    expect(page.items.at(-1).name).toBe("zz-last");
    const disabled = await (await a.req("GET", "discovery/profiles?enabled=false", a.viewer)).json();
    expect(disabled.items.map((p: any) => p.name)).toEqual(["zz-last"]);
  });

  it("PATCH changes only what is given, checks the merged profile, recomputes the next run", async () => {
    const p = await create({ name: "patch me", cidr: "127.0.11.0/30" });
    expect(p.next_run_at).toBeNull();
    const res = await a.req("PATCH", `discovery/profiles/${p.id}`, a.admin, {
      ...p,
      schedule_cron: "0 3 * * *",
      id: 1,
      created_at: "x",
      next_run_at: "y",
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const q = await res.json();
    expect(q).toMatchObject({
      id: p.id,
      name: "patch me",
      cidr: "127.0.11.0/30",
      schedule_cron: "0 3 * * *",
      next_run_at: "2026-11-26T03:00:00.000Z",
    });
    // The merged state is checked: an agent-only type on a server profile is refused.
    const bad = await a.req("PATCH", `discovery/profiles/${p.id}`, a.admin, { scan_types: ["agent_connect"] });
    expect(bad.status).toBe(422);
    const wide = await a.req("PATCH", `discovery/profiles/${p.id}`, a.admin, { targets: ["127.0.0.0/8"] });
    expect(wide.status).toBe(422);
    const off = await (await a.req("PATCH", `discovery/profiles/${p.id}`, a.admin, { enabled: false })).json();
    expect(off).toMatchObject({ enabled: false, next_run_at: null });
    expect((await a.req("PATCH", "discovery/profiles/99999999", a.admin, { name: "x" })).status).toBe(404);
  });

  it("DELETE answers 204 and keeps the profile's jobs without it", async () => {
    const p = await create({ name: "to delete", cidr: "127.0.12.0/30" });
    const job = await a.job({ status: "completed", profile_id: p.id });
    expect((await a.req("DELETE", `discovery/profiles/${p.id}`, a.editor)).status).toBe(403);
    const res = await a.req("DELETE", `discovery/profiles/${p.id}`, a.admin);
    expect(res.status).toBe(204);
    expect((await a.t.sql`select profile_id from scan_jobs where id = ${job}`)[0]!.profile_id).toBeNull();
    const missing = await a.req("DELETE", `discovery/profiles/${p.id}`, a.admin);
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toMatch(/^Profile not found/);
  });
});

describe("POST /discovery/profiles/{id}/run, /pause, /resume", () => {
  it("runs a profile now as a manual job of the profile, recording last_run", async () => {
    await closeOpenJobs();
    const p = await create({
      name: "run me",
      targets: ["127.0.13.0/30", "127.0.13.9"],
      ports_preset: "infrastructure",
      schedule_cron: "0 * * * *",
    });
    const res = await a.req("POST", `discovery/profiles/${p.id}/run`, a.admin);
    expect(res.status).toBe(201);
    const job = await res.json();
    expect(job).toMatchObject({
      profile_id: p.id,
      source_type: "manual",
      label: "run me",
      targets: ["127.0.13.0/30", "127.0.13.9"],
      addresses_total: 3,
      status: "queued",
    });
    expect(job.tcp_ports).toContain(8006);
    const after = await (await a.req("GET", `discovery/profiles?q=run%20me`, a.viewer)).json();
    expect(after.items[0].last_run).toBe(a.clock.now().toISOString());
  });

  it("answers 400 Profile is disabled, and 429 past three open server scans", async () => {
    await closeOpenJobs();
    const off = await create({ name: "off", cidr: "127.0.14.0/30", enabled: false });
    const res = await a.req("POST", `discovery/profiles/${off.id}/run`, a.admin);
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe("Profile is disabled");
    const on = await create({ name: "on", cidr: "127.0.14.0/30" });
    for (let i = 0; i < 3; i++) await a.job({ status: "queued" });
    expect((await a.req("POST", `discovery/profiles/${on.id}/run`, a.admin)).status).toBe(429);
    expect((await a.req("POST", "discovery/profiles/99999999/run", a.admin)).status).toBe(404);
  });

  it("pause keeps the first paused_at and stops the schedule; resume computes the next run", async () => {
    const p = await create({ name: "pausable", cidr: "127.0.15.0/30", schedule_cron: "30 * * * *" });
    const paused = await (await a.req("POST", `discovery/profiles/${p.id}/pause`, a.admin)).json();
    expect(paused).toMatchObject({ paused_at: a.clock.now().toISOString(), next_run_at: null });
    a.clock.advance(60_000);
    const again = await (await a.req("POST", `discovery/profiles/${p.id}/pause`, a.admin)).json();
    expect(again.paused_at).toBe(paused.paused_at);
    const resumed = await (await a.req("POST", `discovery/profiles/${p.id}/resume`, a.admin)).json();
    expect(resumed).toMatchObject({ paused_at: null, next_run_at: "2026-11-25T10:30:00.000Z" });
    const audits = await a.t
      .sql`select action from audit_log where entity_id = ${String(p.id)} and action like 'discovery.profile.%' order by id`;
    expect(audits.map((r) => r.action)).toEqual(["discovery.profile.create", "discovery.profile.pause", "discovery.profile.resume"]);
  });
});

describe("the discovery_profiles job", () => {
  it("is registered every minute under its own advisory lock", () => {
    expect(findJob("discovery_profiles")).toMatchObject({ schedule: "* * * * *", lockKey: "discovery_profiles_job" });
  });

  it("starts scheduled jobs for due profiles only, advances their next run, never stacks, and starts none while paused", async () => {
    await closeOpenJobs();
    await a.t.sql`update discovery_profiles set enabled = false`;
    a.clock.at = new Date("2026-11-25T11:00:30.000Z");
    const due = await create({ name: "every 5", cidr: "127.0.16.0/30", schedule_cron: "*/5 * * * *" });
    const later = await create({ name: "hourly", cidr: "127.0.17.0/30", schedule_cron: "0 * * * *" });
    const held = await create({ name: "held", cidr: "127.0.18.0/30", schedule_cron: "*/5 * * * *" });
    await a.req("POST", `discovery/profiles/${held.id}/pause`, a.admin);
    expect(due.next_run_at).toBe("2026-11-25T11:05:00.000Z");

    a.clock.at = new Date("2026-11-25T11:04:59.000Z");
    expect((await runJob()).rows_touched).toBe(0);

    a.clock.at = new Date("2026-11-25T11:05:02.000Z");
    const first = await runJob();
    expect(first.rows_touched).toBe(1);
    const jobs = await a.t
      .sql`select id, profile_id, source_type, triggered_by, status from scan_jobs where profile_id in (${due.id}, ${later.id}, ${held.id})`;
    expect(jobs).toEqual([
      expect.objectContaining({ profile_id: due.id, source_type: "scheduled", triggered_by: "scheduler", status: "queued" }),
    ]);
    const [row] = await a.t.sql`select next_run_at, last_run from discovery_profiles where id = ${due.id}`;
    expect(row!.next_run_at.toISOString()).toBe("2026-11-25T11:10:00.000Z");
    expect(row!.last_run.toISOString()).toBe("2026-11-25T11:05:02.000Z");

    // Its job still open at the next slot: the slot is skipped, not stacked.
    a.clock.at = new Date("2026-11-25T11:10:01.000Z");
    const second = await runJob();
    expect(second.rows_touched).toBe(0);
    expect((await a.t.sql`select count(*)::int as n from scan_jobs where profile_id = ${due.id}`)[0]!.n).toBe(1);
    expect((await a.t.sql`select next_run_at from discovery_profiles where id = ${due.id}`)[0]!.next_run_at.toISOString()).toBe(
      "2026-11-25T11:15:00.000Z",
    );

    // The fleet-wide pause: no job starts, the slot passes.
    await closeOpenJobs();
    await a.paused(true);
    a.clock.at = new Date("2026-11-25T11:15:01.000Z");
    const third = await runJob();
    expect(third.detail).toMatchObject({ paused: true });
    expect((await a.t.sql`select count(*)::int as n from scan_jobs where profile_id = ${due.id}`)[0]!.n).toBe(1);
    expect((await a.t.sql`select next_run_at from discovery_profiles where id = ${due.id}`)[0]!.next_run_at.toISOString()).toBe(
      "2026-11-25T11:20:00.000Z",
    );
    await a.paused(false);

    a.clock.at = new Date("2026-11-25T12:00:05.000Z");
    const fourth = await runJob();
    expect(fourth.rows_touched).toBe(2);
    expect((await a.t.sql`select count(*)::int as n from scan_jobs where profile_id = ${held.id}`)[0]!.n).toBe(0);
  });

  it("gives an agent's profile to its agent; one the agent may no longer run is skipped and moves on", async () => {
    await closeOpenJobs();
    await a.t.sql`update discovery_profiles set enabled = false`;
    const ready = [{ collector: "discovery.tcp", state: "ready", reason: null, remediation: null, missing: [] }];
    const agent = await a.agent({ status: "active", online: true, networks: lan("192.168.50.10/24"), readiness: ready });
    const refused = await a.req("POST", "discovery/profiles", a.admin, {
      name: "too wide",
      cidr: "192.168.0.0/20",
      scan_agent_id: agent,
      scan_types: ["agent_connect"],
    });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ reason: "out_of_scope", reason_detail: expect.stringContaining("192.168.0.0/20") });
    const p = await create({
      name: "from the agent",
      cidr: "192.168.50.0/28",
      scan_agent_id: agent,
      scan_types: ["agent_connect", "agent_icmp"],
      schedule_cron: "*/10 * * * *",
    });
    a.clock.at = new Date(p.next_run_at);
    expect((await runJob()).rows_touched).toBe(1);
    const [job] = await a.t.sql`select scan_agent_id, scan_types, source_type from scan_jobs where profile_id = ${p.id}`;
    expect(job).toEqual({ scan_agent_id: agent, scan_types: ["agent_connect", "agent_icmp"], source_type: "scheduled" });
    await closeOpenJobs();
    await a.t.sql`update agents set status = 'revoked' where id = ${agent}`;
    a.clock.advance(10 * 60_000);
    const r = await runJob();
    expect(r.rows_touched).toBe(0);
    expect(r.detail.skipped).toEqual([expect.objectContaining({ profile_id: p.id })]);
    const [row] = await a.t.sql`select next_run_at from discovery_profiles where id = ${p.id}`;
    expect(row!.next_run_at.getTime()).toBe(a.clock.now().getTime() + 10 * 60_000);
  });

  it("runs through POST /admin/jobs/discovery_profiles/run under its lock", async () => {
    const res = await a.req("POST", "admin/jobs/discovery_profiles/run", a.admin);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ job: "discovery_profiles", outcome: "success" });
  });
});
