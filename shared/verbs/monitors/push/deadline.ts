// A push monitor's next_check_at is its deadline (docs/adr/0439): created, resumed or given another
// expectation, it is counted from now; every other type is due now in those cases.
import { type CheckType, sourceOf } from "../../../domain/monitors/check-types.ts";
import { deadlineFrom, expectationOf } from "../../../domain/monitors/push-expectation.ts";

export function firstDueAt(m: { check_type: CheckType; config: Record<string, unknown>; interval_secs: number }, now: Date): Date {
  return sourceOf(m.check_type) === "push" ? deadlineFrom(expectationOf(m.config, m.interval_secs), now) : now;
}
