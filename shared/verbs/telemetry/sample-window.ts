// Which pushed sample timestamps are acceptable (pure, so the rule is unit-tested): at most CLOCK_SKEW_MS
// ahead of the server's clock, and not older than telemetry_warm_days (retention would delete them).
import type { ValidationIssue } from "../../errors.ts";

/** How far a sender's clock may run ahead of ours. */
export const CLOCK_SKEW_MS = 60_000;
const DAY_MS = 86_400_000;

/** One 422 issue per bad timestamp, located as body.samples.<index>.ts. */
export function sampleTimeIssues(stamps: readonly Date[], now: Date, warmDays: number): ValidationIssue[] {
  const latest = now.getTime() + CLOCK_SKEW_MS;
  const oldest = now.getTime() - warmDays * DAY_MS;
  const issues: ValidationIssue[] = [];
  stamps.forEach((ts, i) => {
    const t = ts.getTime();
    const loc = ["body", "samples", i, "ts"];
    if (t > latest) {
      const ahead = Math.ceil((t - now.getTime()) / 1000);
      issues.push({
        loc,
        msg: `Is ${ahead} s in the future; at most ${CLOCK_SKEW_MS / 1000} s of clock skew is allowed.`,
        type: "future_timestamp",
      });
    } else if (t < oldest) {
      issues.push({
        loc,
        msg: `Is older than telemetry_warm_days (${warmDays} days); retention keeps nothing that old.`,
        type: "stale_timestamp",
      });
    }
  });
  return issues;
}
