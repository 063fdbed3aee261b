// Group monitors (issue 29 item 3, docs/adr/0440): a monitor whose state is derived from its members'.
// Pure, so the recording path, the verbs and the tests share one rule.
//
// - Members paused or in maintenance do not count; the others are up, down or pending.
// - `need`: every counted member (all), one (any) or `min_up` (at_least).
// - up when at least `need` members are up; down when even the pending ones turning up could not reach
//   `need` (all: a member is down; any: none is up or pending; at_least: fewer than `min_up` members count
//   at all); otherwise pending. No counted member at all is pending.
// - The verdict is applied without retries (the members had theirs): up and down at once; an undecided
//   verdict makes an up group pending and keeps a down one down, as a failing retry does (state.ts), so a
//   down alert is always followed by its recovery.
import * as v from "valibot";
import { type ConfigIssue, oneOf, WholeNumber } from "./config-fields.ts";
import { type Decision, decide, type MonitorState } from "./state.ts";

export const GROUP_MODES = ["all", "any", "at_least"] as const;
export type GroupMode = (typeof GROUP_MODES)[number];
/** How deep groups may nest: a chain longer than this is refused on write and not followed on evaluation. */
export const MAX_GROUP_DEPTH = 8;
/** Members named in a message, per standing; the event detail counts them all. */
const NAMED = 5;

export const GROUP_CONFIG = {
  mode: v.optional(oneOf(GROUP_MODES)),
  min_up: v.optional(v.nullable(WholeNumber(1, 10_000))),
};
export const GROUP_DEFAULTS = { mode: "all", min_up: null } as const;

/** Rules across the keys: min_up goes with at_least, and only with it. */
export function groupConfigIssues(config: Record<string, unknown>): ConfigIssue[] {
  const mode = config.mode ?? GROUP_DEFAULTS.mode;
  const minUp = config.min_up ?? null;
  if (mode === "at_least" && minUp === null) return [{ path: ["min_up"], msg: "Required with mode at_least.", type: "missing" }];
  if (mode !== "at_least" && minUp !== null) return [{ path: ["min_up"], msg: "Only with mode at_least.", type: "invalid" }];
  return [];
}

/** Where a member stands for its group. */
export type Standing = "up" | "down" | "pending" | "paused" | "maintenance";
export const COUNTED: readonly Standing[] = ["up", "down", "pending"];

export function standingOf(member: { enabled: boolean; status: string }): Standing {
  if (!member.enabled) return "paused";
  // A degraded member (some vantage points down, fewer than its quorum: docs/adr/0441) still answers.
  if (member.status === "degraded") return "up";
  if (member.status === "up" || member.status === "down" || member.status === "maintenance") return member.status;
  return "pending";
}

/** A group's members of one standing: how many, and the first few (by name). */
export interface MemberTally {
  standing: Standing;
  n: number;
  first: { id: number; name: string }[];
}

export type GroupVerdict = "up" | "down" | "pending";

export interface GroupJudgement {
  verdict: GroupVerdict;
  msg: string;
  /** The event detail: the rule applied, the counts, and the members that decided it. */
  detail: {
    mode: GroupMode;
    need: number;
    counts: Record<Standing, number>;
    deciding: { id: number; name: string; status: Standing }[];
  };
}

export function judgeGroup(config: Record<string, unknown>, tallies: readonly MemberTally[]): GroupJudgement {
  const mode = (config.mode as GroupMode | undefined) ?? GROUP_DEFAULTS.mode;
  const counts: Record<Standing, number> = { up: 0, down: 0, pending: 0, paused: 0, maintenance: 0 };
  for (const t of tallies) counts[t.standing] += t.n;
  const counted = counts.up + counts.down + counts.pending;
  const need = mode === "all" ? counted : mode === "any" ? 1 : Number(config.min_up ?? 1);
  const verdict: GroupVerdict =
    counted === 0 ? "pending" : counts.up >= need ? "up" : counts.up + counts.pending < need ? "down" : "pending";
  // The members that decided it: the up ones for up, the down ones for down, the pending ones otherwise.
  const by: Standing = verdict;
  const deciding = tallies.filter((t) => t.standing === by).flatMap((t) => t.first.map((m) => ({ ...m, status: by })));
  const left = [counts.paused ? `${counts.paused} paused` : "", counts.maintenance ? `${counts.maintenance} in maintenance` : ""].filter(
    Boolean,
  );
  const uncounted = left.length ? ` (not counted: ${left.join(", ")})` : "";
  let msg: string;
  if (counted === 0) msg = `pending: no member counts${uncounted}`;
  else {
    const named = deciding.slice(0, NAMED).map((m) => `${m.name} ${m.status}`);
    const more = counts[by] > named.length ? `, and ${counts[by] - named.length} more ${by}` : "";
    const short = mode === "at_least" && counted < need ? `; only ${counted} member${counted === 1 ? "" : "s"} count` : "";
    msg = `${verdict}: ${counts.up} of ${counted} up, need ${need}${short}${named.length ? `: ${named.join(", ")}${more}` : ""}${uncounted}`;
  }
  return { verdict, msg, detail: { mode, need, counts, deciding } };
}

/** What a group's verdict does to it: state.ts's machine without retries, undecided as a retrying failure. */
export function decideGroup(prev: MonitorState, verdict: GroupVerdict, msg: string, now: Date, inMaintenance: boolean): Decision {
  if (inMaintenance || verdict === "up") return { ...decide(prev, { up: true, msg }, now, inMaintenance), retries: 0 };
  if (verdict === "down") return { ...decide({ ...prev, max_retries: 0 }, { up: false, msg }, now), retries: 0 };
  // Undecided: pending from up (or from maintenance), a down group stays down until its members recover.
  const d = decide({ ...prev, retries: 0, max_retries: 1 }, { up: false, msg }, now);
  return { ...d, retries: 0 };
}
