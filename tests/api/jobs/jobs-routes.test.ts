// GET /admin/jobs and POST /admin/jobs/{name}/run: admin only, a run answers its record, a held lock
// answers 409 with the attempt recorded as skipped, a failing job is a recorded failure, triggers audited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;

beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

describe("security", () => {
  it("editor and viewer get 403, no credential 401; nothing runs", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/admin/jobs"],
      ["POST", "/api/v1/admin/jobs/analytics/run"],
    ] as const) {
      for (const token of [a.editor, a.viewer]) expect((await a.req(method, path, token)).status, `${method} ${path}`).toBe(403);
      expect((await a.req(method, path)).status).toBe(401);
    }
    expect((await a.t.sql`select 1 from job_runs`).length).toBe(0);
  });
});

describe("GET /admin/jobs", () => {
  it("lists every job with its UTC schedule, next run and no last run yet", async () => {
    const res = await a.req("GET", "/api/v1/admin/jobs", a.admin);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.runs).toEqual([]);
    expect(body.jobs.map((j: { name: string }) => j.name)).toEqual([
      "analytics",
      "retention",
      "server_key_rotation",
      "discovery_profiles",
      "privacy_analysis",
      "cve_sync",
      "certificates",
      "db_backup",
    ]);
    const [analytics, retention] = body.jobs;
    expect(analytics).toMatchObject({ schedule: "30 2 * * *", timezone: "UTC", lock_key: "analytics_job", last_run: null });
    expect(retention).toMatchObject({ schedule: "30 3 * * *", timezone: "UTC", lock_key: "retention_job", last_run: null });
    expect(body.jobs[2]).toMatchObject({ schedule: "17 * * * *", timezone: "UTC", lock_key: "server_key_rotation_job", last_run: null });
    for (const [job, hour] of [
      [analytics, 2],
      [retention, 3],
    ] as const) {
      const next = new Date(job.next_run_at);
      expect(next.getUTCHours()).toBe(hour);
      expect(next.getUTCMinutes()).toBe(30);
      expect(next.getTime()).toBeGreaterThan(Date.now() - 1000);
      expect(next.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
    }
  });

  it("refuses a bad limit or an unknown job filter with 422", async () => {
    expect((await a.req("GET", "/api/v1/admin/jobs?limit=many", a.admin)).status).toBe(422);
    const res = await a.req("GET", "/api/v1/admin/jobs?job=backup", a.admin);
    expect(res.status).toBe(422);
    expect((await res.json()).fields.job).toBe(
      "Must be one of: analytics, retention, server_key_rotation, discovery_profiles, privacy_analysis, cve_sync, certificates, db_backup.",
    );
  });
});

describe("POST /admin/jobs/{name}/run", () => {
  it("runs analytics now and answers the run record; the run is listed and the trigger audited", async () => {
    const res = await a.req("POST", "/api/v1/admin/jobs/analytics/run", a.admin);
    expect(res.status).toBe(200);
    const run = await res.json();
    expect(run).toMatchObject({ job: "analytics", trigger: "manual", outcome: "success", rows_touched: 0, error: null });
    expect(run.detail).toMatchObject({ capacity_forecast: { upserted: 0, removed: 0 }, flap_detection: { opened: 0 } });
    expect(Date.parse(run.finished_at)).toBeGreaterThanOrEqual(Date.parse(run.started_at));

    const list = await (await a.req("GET", "/api/v1/admin/jobs", a.admin)).json();
    expect(list.jobs[0].last_run).toEqual(run);
    expect(list.runs).toEqual([run]);

    const [audit] = await a.t
      .sql`select action, category, entity_type, entity_id, diff, actor_email from audit_log where action = 'job.run'`;
    expect(audit).toMatchObject({ category: "jobs", entity_type: "job", entity_id: "analytics", actor_email: "admin@example.com" });
    expect(audit!.diff).toMatchObject({ run_id: run.id, outcome: "success", rows_touched: 0 });
  });

  it("404 for an unknown job, nothing recorded", async () => {
    const res = await a.req("POST", "/api/v1/admin/jobs/backup/run", a.admin);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error_code: "RESOURCE_NOT_FOUND", detail: "Job backup was not found." });
    expect((await a.t.sql`select 1 from job_runs where job = 'backup'`).length).toBe(0);
  });

  it("409 while another holder has the lock: the attempt is recorded as skipped; once released it runs", async () => {
    const holder = await a.t.sql.reserve();
    try {
      await holder`select pg_advisory_lock(hashtext('retention_job'))`;
      const res = await a.req("POST", "/api/v1/admin/jobs/retention/run", a.admin);
      expect(res.status).toBe(409);
      const body = await res.json();
      expect(body.error_code).toBe("CONFLICT");
      expect(body.detail).toMatch(/retention_job is held/);
      expect(body.run).toMatchObject({ job: "retention", trigger: "manual", outcome: "skipped" });
      const [row] = await a.t.sql`select outcome, finished_at from job_runs where id = ${body.run.id}`;
      expect(row).toMatchObject({ outcome: "skipped" });
      expect(row!.finished_at).not.toBeNull();
      await holder`select pg_advisory_unlock(hashtext('retention_job'))`;
    } finally {
      holder.release();
    }
    const res = await a.req("POST", "/api/v1/admin/jobs/retention/run", a.admin);
    expect(res.status).toBe(200);
    expect((await res.json()).outcome).toBe("success");
    const audits = await a.t
      .sql`select diff->>'outcome' as outcome from audit_log where action = 'job.run' and entity_id = 'retention' order by id`;
    expect(audits.map((r) => r.outcome)).toEqual(["skipped", "success"]);
  });

  it("a job that fails is answered 200 with outcome failed and its error, logged as a failed run", async () => {
    await a.t.sql`alter table agent_host_samples_hourly rename to ahsh_away`;
    try {
      const res = await a.req("POST", "/api/v1/admin/jobs/retention/run", a.admin);
      expect(res.status).toBe(200);
      const run = await res.json();
      expect(run).toMatchObject({ job: "retention", outcome: "failed" });
      expect(run.error).toMatch(/agent_host_samples_hourly/);
    } finally {
      await a.t.sql`alter table ahsh_away rename to agent_host_samples_hourly`;
    }
    const { runs } = await (await a.req("GET", "/api/v1/admin/jobs?job=retention&limit=2", a.admin)).json();
    expect(runs.map((r: { outcome: string }) => r.outcome)).toEqual(["failed", "success"]);
  });
});
