// The scheduled backup (job db_backup): a slot of the sidecar's scheduler takes a real pg_dump backup,
// recorded as a schedule run and a db_backups row, with retention as POST /admin/db/backup applies it;
// the scheduler follows a changed backup_schedule without a restart (null: no slots); GET /admin/jobs
// lists the job with the setting's schedule; a runner without the backup capability fails clearly.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { nodeBackupStore } from "../../../runtime/backups/node-backup-store.ts";
import { dbBackupJob } from "../../../shared/verbs/backups/backup-job.ts";
import { Scheduler } from "../../../sidecar/scheduler/scheduler.ts";
import { createHarness, type Harness, json } from "../audit/harness.ts";

const dir = mkdtempSync(join(tmpdir(), "svc-scheduled-backups-"));
let h: Harness;
const open: Scheduler[] = [];

beforeAll(async () => {
  h = await createHarness();
  const { config } = h.t.runtime.deps;
  h.t.runtime.deps.backups = nodeBackupStore({ dir, postgres: { url: config.DATABASE_URL!, sql: h.t.runtime.database.sql! } });
}, 60_000);
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.stop()));
});
afterAll(async () => {
  await h?.t.close();
  rmSync(dir, { recursive: true, force: true });
});

function scheduler(deps = h.t.runtime.deps): Scheduler {
  const { database, clock, logger } = h.t.runtime.deps;
  const s = new Scheduler({ database, clock, logger, jobs: [dbBackupJob], deps });
  open.push(s);
  return s;
}

const putSettings = (body: Record<string, unknown>) => h.call("/api/v1/admin/settings/backup", { method: "PUT", ...json(body) });
const lastRun = async () =>
  (
    await h.t.sql<
      { trigger: string; outcome: string; error: string | null; detail: Record<string, unknown> | null }[]
    >`select trigger, outcome, error, detail from job_runs where job = 'db_backup' order by id desc limit 1`
  )[0];

describe("scheduled backups (db_backup)", () => {
  it("a slot takes a verified pg_dump backup, recorded as a schedule run with retention applied", async () => {
    expect((await putSettings({ backup_local_retention_count: 1 })).status).toBe(200);
    const s = scheduler();
    await s.refreshSchedules();
    expect(s.schedule("db_backup")).toBe("0 3 * * *");
    await s.trigger("db_backup");
    await s.trigger("db_backup");
    const run = await lastRun();
    expect(run).toMatchObject({
      trigger: "schedule",
      outcome: "success",
      error: null,
      detail: { method: "pg_dump", s3_key: null, s3_error: null },
    });
    const rows = await h.t.sql<
      { filename: string; trigger: string; deleted_at: Date | null }[]
    >`select filename, trigger, deleted_at from db_backups order by id`;
    expect(rows.length).toBe(2);
    expect(rows.every((r) => r.trigger === "schedule")).toBe(true);
    // The second backup's retention (keep 1) removed the first, as POST /admin/db/backup does.
    expect(rows[0]!.deleted_at).not.toBeNull();
    expect(rows[1]!.deleted_at).toBeNull();
    expect((run!.detail as { local_deleted: string[] }).local_deleted).toEqual([rows[0]!.filename]);
    expect(readdirSync(dir).filter((n) => n.endsWith(".sql.gz"))).toEqual([rows[1]!.filename]);
    const audit = await h.t.sql`select 1 from audit_log where action = 'db_backup'`;
    expect(audit.length).toBe(2);
  }, 60_000);

  it("follows a changed backup_schedule without a restart; null disables the slots; GET /admin/jobs shows it", async () => {
    const s = scheduler();
    await s.refreshSchedules();
    const from = new Date("2026-11-03T00:00:00Z");
    expect(s.nextRun("db_backup", from)!.toISOString()).toBe("2026-11-03T03:00:00.000Z");

    expect((await putSettings({ backup_schedule: "15 1 * * 2" })).status).toBe(200);
    await s.refreshSchedules();
    expect(s.schedule("db_backup")).toBe("15 1 * * 2");
    expect(s.nextRun("db_backup", from)!.toISOString()).toBe("2026-11-03T01:15:00.000Z"); // a Tuesday
    expect(s.nextRun("db_backup", new Date("2026-11-03T02:00:00Z"))!.toISOString()).toBe("2026-11-10T01:15:00.000Z");
    const jobs = (await (await h.call("/api/v1/admin/jobs")).json()).jobs as {
      name: string;
      schedule: string | null;
      next_run_at: string | null;
    }[];
    expect(jobs.find((j) => j.name === "db_backup")).toMatchObject({ schedule: "15 1 * * 2" });

    expect((await putSettings({ backup_schedule: null })).status).toBe(200);
    await s.refreshSchedules();
    expect(s.schedule("db_backup")).toBeNull();
    expect(s.nextRun("db_backup", from)).toBeNull();
    const disabled = (await (await h.call("/api/v1/admin/jobs")).json()).jobs.find((j: { name: string }) => j.name === "db_backup");
    expect(disabled).toMatchObject({ schedule: null, next_run_at: null });

    // The timer re-reads it too (a short interval here; a minute by default).
    expect((await putSettings({ backup_schedule: "30 4 * * *" })).status).toBe(200);
    const { database, clock, logger } = h.t.runtime.deps;
    const timed = new Scheduler({ database, clock, logger, jobs: [dbBackupJob], deps: h.t.runtime.deps, scheduleRefreshMs: 20 });
    open.push(timed);
    const end = Date.now() + 5000;
    while (timed.schedule("db_backup") !== "30 4 * * *" && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(timed.schedule("db_backup")).toBe("30 4 * * *");
  }, 30_000);

  it("a runner without the backup capability records a failed run with the reason and no archive", async () => {
    const before = (await h.t.sql`select 1 from db_backups`).length;
    const { backups: _none, ...withoutBackups } = h.t.runtime.deps;
    const s = scheduler(withoutBackups);
    await s.refreshSchedules();
    await s.trigger("db_backup");
    const run = await lastRun();
    expect(run).toMatchObject({ trigger: "schedule", outcome: "failed" });
    expect(run!.error).toContain("no backup capability");
    expect((await h.t.sql`select 1 from db_backups`).length).toBe(before);
  });

  it("POST /admin/jobs/db_backup/run takes the same backup on demand", async () => {
    const res = await h.call("/api/v1/admin/jobs/db_backup/run", { method: "POST" });
    expect(res.status).toBe(200);
    const run = await res.json();
    expect(run).toMatchObject({ job: "db_backup", trigger: "manual", outcome: "success" });
    expect(run.detail.filename).toMatch(/^cb-\d{8}T\d{9}Z\.sql\.gz$/);
  }, 60_000);
});
