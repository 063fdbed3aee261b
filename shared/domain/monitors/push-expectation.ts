// What a heartbeat (push) monitor expects (issue 29 item 1, docs/adr/0439): a push every interval_secs
// with a grace period, or one per occurrence of a cron schedule in the monitor's time zone within a
// tolerance ("daily at 02:00, within 30 minutes"). Its config rules for the registry (check-types.ts)
// and the deadline a push or a missed deadline moves `next_check_at` to. Runtime-neutral: croner and
// Intl only.
import { Cron } from "croner";
import * as v from "valibot";
import type { ConfigIssue } from "./config-fields.ts";
import { oneOf, WholeNumber } from "./config-fields.ts";

export const PUSH_EXPECTS = ["interval", "cron"] as const;
export type PushExpect = (typeof PUSH_EXPECTS)[number];

/** A week: longer than any sensible grace or tolerance, short enough to be noticed. */
const MAX_SLACK_SECS = 7 * 86_400;

function zoneError(tz: string): string | null {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return null;
  } catch {
    return "Must be an IANA time zone such as Europe/Berlin.";
  }
}

/** Why `pattern` is not a schedule that fires (in `timezone`), or null when it is. */
function cronError(pattern: string, timezone: string): string | null {
  try {
    // croner answers null for a pattern that never matches a date ("0 0 30 2 *": 30 February).
    if (new Cron(pattern, { timezone, paused: true }).nextRun() === null) return "This schedule never fires.";
    return null;
  } catch (e) {
    return `Not a cron schedule: ${e instanceof Error ? e.message : "invalid pattern"}`;
  }
}

export const PUSH_CONFIG = {
  expect: v.optional(oneOf(PUSH_EXPECTS)),
  grace_secs: v.optional(WholeNumber(0, MAX_SLACK_SECS)),
  cron: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1, "Give a cron schedule."), v.maxLength(200)))),
  tolerance_secs: v.optional(WholeNumber(0, MAX_SLACK_SECS)),
  timezone: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(64),
      v.check((tz) => zoneError(tz) === null, "Must be an IANA time zone such as Europe/Berlin."),
    ),
  ),
} satisfies v.ObjectEntries;

export const PUSH_DEFAULTS = { expect: "interval", grace_secs: 60, cron: null, tolerance_secs: 300, timezone: "UTC" } as const;

/** The checks across keys, after each key passed its own rule: a cron expectation needs a schedule that fires. */
export function pushConfigIssues(config: Record<string, unknown>): ConfigIssue[] {
  const e = expectationOf(config, 60);
  if (e.expect !== "cron") return [];
  if (e.cron === null) return [{ path: ["cron"], msg: "Required when expect is cron.", type: "missing" }];
  const error = cronError(e.cron, e.timezone);
  return error ? [{ path: ["cron"], msg: error, type: "value_error" }] : [];
}

export interface PushExpectation {
  expect: PushExpect;
  interval_secs: number;
  grace_secs: number;
  cron: string | null;
  tolerance_secs: number;
  timezone: string;
}

/** The stored config (only the keys sent) with the defaults under it. */
export function expectationOf(config: Record<string, unknown>, intervalSecs: number): PushExpectation {
  const c = { ...PUSH_DEFAULTS, ...config } as Record<string, unknown>;
  return {
    expect: c.expect === "cron" ? "cron" : "interval",
    interval_secs: intervalSecs,
    grace_secs: typeof c.grace_secs === "number" ? c.grace_secs : PUSH_DEFAULTS.grace_secs,
    cron: typeof c.cron === "string" ? c.cron : null,
    tolerance_secs: typeof c.tolerance_secs === "number" ? c.tolerance_secs : PUSH_DEFAULTS.tolerance_secs,
    timezone: typeof c.timezone === "string" ? c.timezone : PUSH_DEFAULTS.timezone,
  };
}

const plus = (at: Date, secs: number) => new Date(at.getTime() + secs * 1000);
/** Far enough to never come: a stored schedule that stopped firing (the zone's rules changed) never marks down. */
const NEVER = new Date("9999-12-31T00:00:00Z");

function nextOccurrence(e: PushExpectation, after: Date): Date | null {
  try {
    return new Cron(e.cron ?? "", { timezone: e.timezone, paused: true }).nextRun(after);
  } catch {
    return null;
  }
}

/**
 * The deadline after a push at `at`. Interval: one interval plus the grace. Cron: the push answers every
 * occurrence within the tolerance around it (a job that runs a little early or late), so the next
 * deadline is the first occurrence later than that, plus the tolerance.
 */
export function deadlineAfterPush(e: PushExpectation, at: Date): Date {
  if (e.expect === "interval") return plus(at, e.interval_secs + e.grace_secs);
  const next = nextOccurrence(e, plus(at, e.tolerance_secs));
  return next ? plus(next, e.tolerance_secs) : NEVER;
}

/**
 * The deadline counted from `from` without a push (created, resumed, its expectation changed, or a
 * deadline just missed): interval, a whole interval plus the grace; cron, the next occurrence after
 * `from` plus the tolerance.
 */
export function deadlineFrom(e: PushExpectation, from: Date): Date {
  if (e.expect === "interval") return plus(from, e.interval_secs + e.grace_secs);
  const next = nextOccurrence(e, from);
  return next ? plus(next, e.tolerance_secs) : NEVER;
}
