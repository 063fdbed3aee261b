// Pushes to heartbeat monitors (docs/adr/0439), a batch of them in one transaction: the push route's
// group commit (functions/routes/push/group-commit.ts) hands in every push that arrived while the
// previous commit was in flight, and answers each one after this commits. One index lookup by token
// hash for the whole batch (locking the monitors in id order, so a rotation either committed before and
// the old token finds nothing, or waits for this), then the results through the probed checks' recording
// (state, events, alerts, uptime, samples, live events), which also writes each monitor's next deadline
// and its count of pushes this minute (the per-token limit) in its one update of the row.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { CHECK_TYPES, sourceOf } from "../../../domain/monitors/check-types.ts";
import { deadlineAfterPush, expectationOf } from "../../../domain/monitors/push-expectation.ts";
import type { CheckSample } from "../../../domain/monitors/state.ts";
import { defineVerb } from "../../verb.ts";
import {
  LOCKED_MONITOR_COLUMNS,
  type LockedMonitor,
  lockedMonitor,
  type MonitorResult,
  recordMonitorResults,
} from "../run/record-results.ts";

export const PUSH_CHECK_TYPES = CHECK_TYPES.filter((t) => sourceOf(t) === "push");

export interface Push {
  token_hash: string;
  /** The status the push gave, or null when it gave none (up, unless its exit code says otherwise). */
  status: "up" | "down" | null;
  msg: string | null;
  ping_ms: number | null;
  exit_code: number | null;
}

/**
 * A push monitor takes this many pushes a minute (a job pushing once a second fits; a loop gone wild does
 * not fill its history). Counted on the monitor's row in the pushes' own transaction: a limit kept in
 * the rate limiter's store would cost each push a round trip, and with the database store a commit of
 * its own, which is what the group commit exists to share.
 */
export const PUSHES_PER_MINUTE = 60;
const WINDOW_MS = 60_000;

/**
 * recorded; paused: a valid token of a paused monitor (nothing recorded); unknown: no monitor has it;
 * limited: over PUSHES_PER_MINUTE, nothing recorded, a new window in `retry_after_s`.
 */
export type PushOutcome = { status: "recorded" | "paused" | "unknown" } | { status: "limited"; retry_after_s: number };

interface PushMonitor extends LockedMonitor {
  push_token_hash: string;
  config: Record<string, unknown>;
  push_window_start: string | Date | null;
  push_window_hits: number;
}

/** What a push says: its status (an exit code other than 0 is a failure unless a status was given) and message. */
export function pushResult(p: Push, monitorId: number, at: Date): MonitorResult {
  const up = p.status !== null ? p.status === "up" : (p.exit_code ?? 0) === 0;
  // The exit code is kept with the sample (its `extra`), the ping as its latency.
  const samples: CheckSample[] = p.exit_code !== null ? [{ metric: "exit_code", value: p.exit_code }] : [];
  const fallback = p.exit_code !== null ? `exit code ${p.exit_code}` : up ? "OK" : "push reported down";
  return {
    monitor_id: monitorId,
    checked_at: at.toISOString(),
    up,
    latency_ms: p.ping_ms,
    samples,
    msg: p.msg ?? fallback,
    source: "push",
    // A script that says it failed is down at once: its failure is not a probe's blip to retry.
    immediate: !up,
  };
}

export const recordPushes = defineVerb<{ pushes: Push[] }, PushOutcome[]>({ scope: "public" }, async (s, { pushes }) => {
  const hashes = [...new Set(pushes.map((p) => p.token_hash))];
  const found = await queryRows<PushMonitor>(
    s.tx,
    sql`select ${LOCKED_MONITOR_COLUMNS}, push_token_hash, config, push_window_start, push_window_hits from monitors
        where push_token_hash = any(${`{${hashes.join(",")}}`}::text[])
          and check_type in (${sql.join(
            PUSH_CHECK_TYPES.map((t) => sql`${t}`),
            sql`, `,
          )})
        order by id for update`,
  );
  const byHash = new Map(found.map((m) => [m.push_token_hash, m]));
  const now = s.now.getTime();
  const windows = new Map<number, { start: number; hits: number }>();
  const results: MonitorResult[] = [];
  const outcomes = pushes.map((p): PushOutcome => {
    const m = byHash.get(p.token_hash);
    if (!m) return { status: "unknown" };
    if (!m.enabled) return { status: "paused" };
    let w = windows.get(m.id);
    if (!w) {
      const start = m.push_window_start ? new Date(m.push_window_start).getTime() : null;
      w = start !== null && now - start < WINDOW_MS ? { start, hits: m.push_window_hits } : { start: now, hits: 0 };
      windows.set(m.id, w);
    }
    if (w.hits >= PUSHES_PER_MINUTE)
      return { status: "limited", retry_after_s: Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000)) };
    w.hits++;
    results.push(pushResult(p, m.id, s.now));
    return { status: "recorded" };
  });
  // Each recorded push carries its monitor's next deadline and its count this minute (the last push of a
  // monitor in the batch carries the final count), written by the recording's one update of the row.
  const byId = new Map(found.map((m) => [m.id, m]));
  for (const r of results) {
    const m = byId.get(r.monitor_id)!;
    const w = windows.get(m.id)!;
    r.push = {
      deadline: deadlineAfterPush(expectationOf(m.config, m.interval_secs), s.now).toISOString(),
      window_start: new Date(w.start).toISOString(),
      window_hits: w.hits,
    };
  }
  // The monitors are locked already (above): the recording reads them from here, not again.
  if (results.length > 0) await recordMonitorResults(s, results, new Map(found.map((m) => [m.id, lockedMonitor(m)])));
  return outcomes;
});
