// The hook discovery calls when a run completes: a snapshot with trigger "discovery" and the job's id,
// in its own transaction after the job's; when the analysis fails, the run still ends completed and the
// failure is only logged; with the analysis off, nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Logger } from "../../../shared/logger.ts";
import { completeScanJob } from "../../../shared/verbs/discovery/run/finish.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { createPrivacyActors, type PrivacyActors } from "./support.ts";

let a: PrivacyActors;
beforeAll(async () => {
  a = await createPrivacyActors();
});
afterAll(async () => {
  await a?.t.close();
});

function recordingLogger(): Logger & { lines: { level: string; msg: string; fields?: Record<string, unknown> }[] } {
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, msg, ...(fields ? { fields } : {}) });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

const ctx = () => systemContext({ db: a.t.runtime.database.db, clock: a.clock, random: a.t.runtime.deps.random });
const status = async (id: number) => (await a.t.sql<{ status: string }[]>`select status from scan_jobs where id = ${id}`)[0]!.status;

describe("completeScanJob", () => {
  it("completes the job, then takes a discovery snapshot naming it", async () => {
    await a.device("router", "10.3.0.1", "router", [{ port: 23 }]);
    const job = await a.job({ status: "running", claimed_by: "w" });
    const logger = recordingLogger();
    const row = await completeScanJob(ctx(), logger, { job_id: job });
    expect(row?.status).toBe("completed");
    const snaps = await a.t.sql<
      { trigger: string; scan_job_id: number; score: number }[]
    >`select trigger, scan_job_id, score from privacy_snapshots`;
    expect(snaps).toEqual([{ trigger: "discovery", scan_job_id: job, score: 78 }]);
    expect(logger.lines).toEqual([
      {
        level: "info",
        msg: "privacy analysis found new findings",
        fields: { scan_job_id: job, snapshot_id: expect.any(Number), score: 78, new_findings: 1 },
      },
    ]);
  });

  it("leaves the run completed when the analysis fails, and only logs the failure", async () => {
    const job = await a.job({ status: "running", claimed_by: "w" });
    const logger = recordingLogger();
    await a.t.sql`alter table privacy_snapshots rename to privacy_snapshots_away`;
    try {
      const row = await completeScanJob(ctx(), logger, { job_id: job });
      expect(row?.status).toBe("completed");
    } finally {
      await a.t.sql`alter table privacy_snapshots_away rename to privacy_snapshots`;
    }
    expect(await status(job)).toBe("completed");
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatchObject({
      level: "warn",
      msg: "privacy analysis after a discovery run failed; the run is unaffected",
      fields: { scan_job_id: job },
    });
    expect((await a.t.sql`select 1 from privacy_snapshots where scan_job_id = ${job}`).length).toBe(0);
  });

  it("takes nothing for a job that was not running (cancelled meanwhile), nor with the analysis off", async () => {
    const cancelled = await a.job({ status: "cancelled" });
    expect(await completeScanJob(ctx(), recordingLogger(), { job_id: cancelled })).toBeNull();
    await a.t.sql`insert into app_settings (key, value) values ('privacy_analysis_enabled', 'false'::jsonb)`;
    const job = await a.job({ status: "running", claimed_by: "w" });
    expect((await completeScanJob(ctx(), recordingLogger(), { job_id: job }))?.status).toBe("completed");
    expect((await a.t.sql`select 1 from privacy_snapshots where scan_job_id in (${cancelled}, ${job})`).length).toBe(0);
  });
});
