// Absence detection for heartbeat monitors (docs/adr/0439): the enabled push monitors whose deadline
// (next_check_at) has passed, taken with FOR UPDATE SKIP LOCKED like the runner's claim so several
// sidecars share the sweep, each get a failed result "no push since …, expected by …" through the probed
// checks' recording (so max_retries, events and alerts apply), and their next deadline counted from now.
// A push committing meanwhile holds the row, so it is skipped here and judged on its new deadline.
import { sql } from "drizzle-orm";
import { queryRows } from "../../../db/database.ts";
import { deadlineFrom, expectationOf } from "../../../domain/monitors/push-expectation.ts";
import { defineVerb } from "../../verb.ts";
import { type MonitorResult, type RecordOutcome, recordMonitorResults } from "../run/record-results.ts";
import { WRITE_MONITORS } from "../scopes.ts";
import { PUSH_CHECK_TYPES } from "./record-pushes.ts";

interface Overdue {
  id: number;
  config: Record<string, unknown>;
  interval_secs: number;
  deadline: string | Date;
  last_push: string | Date | null;
}

const iso = (d: string | Date) => new Date(d).toISOString();

export const sweepPushDeadlines = defineVerb<{ limit: number }, RecordOutcome>({ scope: WRITE_MONITORS }, async (s, { limit }) => {
  const now = s.now.toISOString();
  const overdue = await queryRows<Overdue>(
    s.tx,
    sql`
    select m.id, m.config, m.interval_secs, m.next_check_at as deadline,
      (select max(ts) from monitor_samples ms where ms.monitor_id = m.id and ms.source = 'push') as last_push
    from monitors m
    where m.enabled and m.next_check_at <= ${now}::timestamptz
      and m.check_type in (${sql.join(
        PUSH_CHECK_TYPES.map((t) => sql`${t}`),
        sql`, `,
      )})
    order by m.next_check_at
    limit ${Math.max(1, Math.min(limit, 1000))}
    for update of m skip locked`,
  );
  if (overdue.length === 0) return { recorded: 0, skipped: 0, events: 0, alerts: 0 };
  const next = overdue.map((m) => ({ id: m.id, due: deadlineFrom(expectationOf(m.config, m.interval_secs), s.now).toISOString() }));
  // Before the results: a monitor they leave pending is due again sooner, after its retry interval.
  await s.tx.execute(sql`
    update monitors m set next_check_at = r.due
    from jsonb_to_recordset(${JSON.stringify(next)}::jsonb) as r(id integer, due timestamptz)
    where m.id = r.id`);
  const results: MonitorResult[] = overdue.map((m) => ({
    monitor_id: m.id,
    checked_at: now,
    up: false,
    latency_ms: null,
    samples: [],
    msg: `No push ${m.last_push ? `since ${iso(m.last_push)}` : "yet"}, expected by ${iso(m.deadline)}.`,
    source: "server",
  }));
  return recordMonitorResults(s, results);
});
