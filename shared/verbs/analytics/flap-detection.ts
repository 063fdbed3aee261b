// Analytics pass 3 (spec 3.2, 6.7, 8.3): UP/DOWN transitions per node over the last 24 hours, the
// busiest 30-minute window found in SQL (count over range between '30 minutes' preceding and current
// row), then shared/domain/flap-window.ts decides per node.
// Source of transitions: status_history (entity_type hardware, status up/down, any case), which the
// telemetry push and the status worker write on every change. A node with no status history in the
// period falls back to the status column of its live-metric rows (how an external uptime-monitor
// integration reports, spec 6.7); the two are never mixed for one node, so one change is never counted
// twice. A burst already recorded by a resolved incident is not recorded again: a node's windows are
// counted only after the end of its latest resolved incident.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { FLAP_EVALUATION_MS, FLAP_THRESHOLD, FLAP_WINDOW_MS, flapAction } from "../../domain/flap-window.ts";
import { JOBS_SCOPE } from "../jobs/scope.ts";
import { defineVerb } from "../verb.ts";

interface NodeWindow {
  hardware_id: number;
  busiest: number;
  /** Date or ISO string, depending on the driver (drizzle's postgres.js leaves timestamps as text). */
  first_ts: Date | string | null;
  last_ts: Date | string | null;
  latest: number;
}

interface ActiveIncident {
  id: number;
  hardware_id: number;
}

async function nodeWindows(db: Db, now: Date): Promise<NodeWindow[]> {
  const at = now.toISOString();
  const from = new Date(now.getTime() - FLAP_EVALUATION_MS).toISOString();
  const window = sql`make_interval(secs => ${FLAP_WINDOW_MS / 1000})`;
  return queryRows<NodeWindow>(
    db,
    sql`with sh as (
      select entity_id as hardware_id, created_at as ts, lower(status) as st, lower(previous_status) as prev
      from status_history
      where entity_type = 'hardware' and lower(status) in ('up', 'down')
        and created_at >= ${from}::timestamptz and created_at <= ${at}::timestamptz
    ), lm as (
      select hardware_id, ts, lower(status) as st
      from hardware_live_metrics
      where lower(status) in ('up', 'down') and ts >= ${from}::timestamptz and ts <= ${at}::timestamptz
        and hardware_id not in (select hardware_id from sh)
    ), lm_before as (
      -- the status each live-metric node had just before the period, so its first change counts
      select b.* from (select distinct hardware_id from lm) n
      cross join lateral (
        select hardware_id, ts, lower(status) as st from hardware_live_metrics h
        where h.hardware_id = n.hardware_id and lower(h.status) in ('up', 'down')
          and h.ts < ${from}::timestamptz and h.ts >= ${from}::timestamptz - interval '1 day'
        order by h.ts desc limit 1
      ) b
    ), obs as (
      select hardware_id, ts, st, prev from sh
      union all select hardware_id, ts, st, null from lm
      union all select hardware_id, ts, st, null from lm_before
    ), changes as (
      select hardware_id, ts from (
        select hardware_id, ts, st, coalesce(lag(st) over (partition by hardware_id order by ts), prev) as before from obs
      ) o
      where before is not null and st <> before and ts >= ${from}::timestamptz
    ), recorded as (
      select hardware_id, max(window_end) as until from flap_incidents where status = 'resolved' group by hardware_id
    ), fresh as (
      select c.hardware_id, c.ts from changes c left join recorded r using (hardware_id)
      where r.until is null or c.ts > r.until
    ), windows as (
      select hardware_id, ts, count(*) over w as n, min(ts) over w as first_ts
      from fresh
      window w as (partition by hardware_id order by ts range between ${window} preceding and current row)
    ), busiest as (
      select distinct on (hardware_id) hardware_id, n, first_ts, ts as last_ts from windows order by hardware_id, n desc, ts desc
    ), latest as (
      select hardware_id, count(*) as n from changes where ts >= ${at}::timestamptz - ${window} group by hardware_id
    ), active as (
      select hardware_id from flap_incidents where status = 'active'
    )
    select coalesce(b.hardware_id, a.hardware_id) as hardware_id, coalesce(b.n, 0)::int as busiest, b.first_ts, b.last_ts,
      coalesce(l.n, 0)::int as latest
    from busiest b
    full join active a on a.hardware_id = b.hardware_id
    left join latest l on l.hardware_id = coalesce(b.hardware_id, a.hardware_id)
    where b.n >= ${FLAP_THRESHOLD} or a.hardware_id is not null`,
  );
}

export interface FlapCounts {
  /** New active incidents. */
  opened: number;
  /** Bursts inside the period that had calmed down by now: recorded as resolved incidents. */
  recorded_resolved: number;
  updated: number;
  /** Active incidents resolved. */
  resolved: number;
}

/** Pass 3 of the analytics job, as whoever runs it: the windows read and every incident change in one transaction. */
export const detectFlaps = defineVerb<{ now: Date }, FlapCounts>({ scope: JOBS_SCOPE }, async ({ tx }, { now }) => {
  const counts: FlapCounts = { opened: 0, recorded_resolved: 0, updated: 0, resolved: 0 };
  const nodes = await nodeWindows(tx, now);
  const active = new Map(
    (await queryRows<ActiveIncident>(tx, sql`select id, hardware_id from flap_incidents where status = 'active'`)).map((r) => [
      r.hardware_id,
      r.id,
    ]),
  );
  const at = now.toISOString();
  for (const n of nodes) {
    const incident = active.get(n.hardware_id);
    const action = flapAction({ active: incident !== undefined, busiest: n.busiest, latest: n.latest });
    const first = n.first_ts === null ? null : new Date(n.first_ts).toISOString();
    const last = n.last_ts === null ? null : new Date(n.last_ts).toISOString();
    if (action === "open" || action === "open_resolved") {
      const resolved = action === "open_resolved";
      await tx.execute(sql`insert into flap_incidents (hardware_id, status, transition_count, window_start, window_end, started_at, resolved_at, last_evaluated_at)
        values (${n.hardware_id}, ${resolved ? "resolved" : "active"}, ${n.busiest}, ${first}::timestamptz, ${last}::timestamptz,
          ${first}::timestamptz, ${resolved ? at : null}::timestamptz, ${at}::timestamptz)`);
      counts[resolved ? "recorded_resolved" : "opened"]++;
    } else if (action === "update" && incident !== undefined) {
      // A still-flapping node: the count and window of its busiest stretch in this period.
      await tx.execute(sql`update flap_incidents set last_evaluated_at = ${at}::timestamptz,
          transition_count = coalesce(${n.busiest > 0 ? n.busiest : null}::int, transition_count),
          window_start = coalesce(${first}::timestamptz, window_start), window_end = coalesce(${last}::timestamptz, window_end)
        where id = ${incident}`);
      counts.updated++;
    } else if (action === "resolve" && incident !== undefined) {
      await tx.execute(
        sql`update flap_incidents set status = 'resolved', resolved_at = ${at}::timestamptz, last_evaluated_at = ${at}::timestamptz where id = ${incident}`,
      );
      counts.resolved++;
    }
  }
  return counts;
});
