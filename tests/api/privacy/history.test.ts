// History per day with a driven clock (the last snapshot of each UTC day, oldest first, days clamped to
// 90), and the daily job: a snapshot, then snapshots older than 90 days pruned (the newest always kept)
// and past days thinned to their last snapshot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cryptoRandom } from "../../../shared/clock.ts";
import { advisoryLockFor } from "../../../shared/db/advisory-lock.ts";
import { silentLogger } from "../../../shared/logger.ts";
import { runJob } from "../../../shared/verbs/jobs/run-job.ts";
import { privacyJob } from "../../../shared/verbs/privacy/privacy-job.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { createPrivacyActors, type PrivacyActors } from "./support.ts";

let a: PrivacyActors;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  a = await createPrivacyActors();
  a.clock.at = new Date("2026-06-01T08:00:00Z");
});
afterAll(async () => {
  await a?.t.close();
});

const history = async (query = "") => {
  const res = await a.req("GET", `network/privacy-score/history${query}`, a.viewer);
  return { status: res.status, body: await res.json() };
};
/** The job as the sidecar's scheduler runs it: under its advisory lock, as the system actor, at the driven clock's now. */
const runPrivacyJob = () =>
  runJob(
    {
      ctx: systemContext({ db: a.t.runtime.database.db, clock: a.clock, random: cryptoRandom }),
      lock: advisoryLockFor(a.t.runtime.database.provider),
      logger: silentLogger,
    },
    privacyJob,
    "schedule",
  );
const setEnabled = (on: boolean) =>
  a.t
    .sql`insert into app_settings (key, value) values ('privacy_analysis_enabled', ${a.t.sql.json(on)}) on conflict (key) do update set value = excluded.value`;

describe("history per day", () => {
  it("answers the last snapshot of each day, oldest first", async () => {
    const hw = await a.device("router", "10.2.0.1", "gateway", [{ port: 443, service: "https" }]);
    await a.refresh(); // day 1, 08:00: 100
    await a.rescan(hw, "10.2.0.1", [{ port: 23 }]);
    a.clock.advance(2 * HOUR);
    await a.refresh(); // day 1, 10:00: telnet on a gateway, 77.5 -> 78 (the day's last)
    a.clock.advance(DAY);
    await a.rescan(hw, "10.2.0.1", [{ port: 23 }, { port: 21 }]);
    await a.refresh(); // day 2: 100 - 22.5 - 12 = 65.5 -> 66
    a.clock.advance(2 * DAY);
    await a.rescan(hw, "10.2.0.1", [{ port: 443, service: "https" }]);
    await a.refresh(); // day 4: 100
    const { status, body } = await history();
    expect(status).toBe(200);
    expect(body).toEqual({
      enabled: true,
      days: [
        { date: "2026-06-01", score: 78, critical_count: 1, warning_count: 0, info_count: 0 },
        { date: "2026-06-02", score: 66, critical_count: 2, warning_count: 0, info_count: 0 },
        { date: "2026-06-04", score: 100, critical_count: 0, warning_count: 0, info_count: 0 },
      ],
    });
    expect((await history("?days=2")).body.days.map((d: any) => d.date)).toEqual(["2026-06-04"]);
    expect((await history("?days=1")).body.days.map((d: any) => d.date)).toEqual(["2026-06-04"]);
    // The score's own history: the last 30 snapshots, newest first.
    const score = (await a.get("network/privacy-score")).body;
    expect(score.history.map((h: any) => h.score)).toEqual([100, 66, 78, 100]);
  });

  it("clamps days to 90 and refuses what is not a positive whole number", async () => {
    a.clock.advance(89 * DAY);
    expect((await history("?days=500")).body.days.map((d: any) => d.date)).toEqual(["2026-06-04"]);
    expect((await history("?days=90")).body.days.map((d: any) => d.date)).toEqual(["2026-06-04"]);
    for (const bad of ["0", "-1", "abc", "1.5"]) {
      const res = await history(`?days=${bad}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.error_code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("the daily job", () => {
  it("takes a snapshot and prunes those older than 90 days, keeping the newest", async () => {
    // Now 2026-09-01 10:00: snapshots of 06-01 and 06-02 are more than 90 days old, 06-04 (10:00) is not.
    const before = await a.t.sql<{ n: number }[]>`select count(*)::int as n from privacy_snapshots`;
    expect(before[0]!.n).toBe(4);
    // Two of yesterday (a profile scanning often) and one earlier today: yesterday keeps its last only.
    for (const [at, score] of [
      ["2026-08-31T09:00:00Z", 50],
      ["2026-08-31T18:00:00Z", 60],
      ["2026-09-01T01:00:00Z", 70],
    ] as const)
      await a.t.sql`insert into privacy_snapshots (taken_at, score, grade, trigger) values (${at}, ${score}, 'F', 'discovery')`;
    const run = await runPrivacyJob();
    expect(run).toMatchObject({ job: "privacy_analysis", outcome: "success", rows_touched: 5 });
    expect(run.detail).toMatchObject({ enabled: true, score: 100, pruned: 3, thinned: 1, new_findings: 0 });
    const left = await a.t.sql<{ trigger: string; at: Date }[]>`select trigger, taken_at as at from privacy_snapshots order by taken_at`;
    expect(left.map((r) => [r.at.toISOString(), r.trigger])).toEqual([
      ["2026-06-04T10:00:00.000Z", "manual"],
      ["2026-08-31T18:00:00.000Z", "discovery"],
      ["2026-09-01T01:00:00.000Z", "discovery"],
      ["2026-09-01T10:00:00.000Z", "schedule"],
    ]);
    // Far later, the newest snapshot stays whatever its age when the analysis is off (nothing new is taken).
    await setEnabled(false);
    a.clock.advance(200 * DAY);
    expect((await runPrivacyJob()).detail).toMatchObject({ enabled: false, snapshot_id: null, pruned: 3, thinned: 0 });
    const kept = await a.t.sql<{ at: Date }[]>`select taken_at as at from privacy_snapshots`;
    expect(kept.map((r) => r.at.toISOString())).toEqual(["2026-09-01T10:00:00.000Z"]);
  });
});
