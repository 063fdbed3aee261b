// Records a batch of check results (the runner's, the agents' probe results committed by the link
// batch, or a heartbeat monitor's pushes and missed deadlines: ../push/) in the caller's transaction,
// through the state machine (shared/domain/monitors/state.ts):
// one statement per kind of row for the whole batch (samples, minute buckets, monitor rows, events),
// the rows travelling as one jsonb parameter each, as the agent link batch does. At 167 results a
// second one transaction per result would be 167 commits a second; a batch of ~100 ms is one or two.
// Each state change is announced on NOTIFY `monitors`, results in compact chunks (NOTIFY payloads stop
// at 8000 bytes), and a monitor going down or recovering from down hands an alert to the notifications
// (enqueueAlert, in this same transaction: the alert exists iff the change committed). A monitor in a
// maintenance window is `maintenance`, raises no alert, and its results do not count in its uptime.
// A multi-vantage monitor's result is its point's last result, and the monitor is judged by its quorum
// over its points (vantage-results.ts, docs/adr/0441): `degraded` raises a warning.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/database.ts";
import { decideGroup, type GroupJudgement } from "../../../domain/monitors/group.ts";
import { decideQuorum } from "../../../domain/monitors/quorum.ts";
import type { MonitorResult } from "./monitor-result.ts";
import { decide, type MonitorState, type MonitorStatus } from "../../../domain/monitors/state.ts";
import { enqueueAlerts } from "../../notifications/enqueue-alert.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { groupsToFollow } from "../groups/results.ts";
import { WRITE_MONITORS } from "../scopes.ts";
import { followMonitors } from "../node-status.ts";
import { monitorsInMaintenance } from "./maintenance-cover.ts";
import { judgeVantageResults, quorumMessage } from "./vantage-results.ts";

export type { MonitorResult };

export interface RecordOutcome {
  recorded: number;
  /** Results of monitors deleted or paused meanwhile. */
  skipped: number;
  events: number;
  alerts: number;
}

export interface LockedMonitor extends MonitorState {
  id: number;
  name: string;
  host: string;
  check_type: string;
  target_type: string | null;
  target_id: number | null;
  enabled: boolean;
  group_id: number | null;
  /** It has vantage points (docs/adr/0441): judged by its quorum. */
  multi_vantage: boolean;
}

/** A monitor's alert by kind; a degraded one (some vantage points down, fewer than the quorum) is a warning. */
const ALERT_TEXT = {
  down: { severity: "critical", title: "is down", body: "is down" },
  up: { severity: "info", title: "is up again", body: "recovered" },
  degraded: { severity: "warning", title: "is degraded", body: "is degraded" },
} as const;

/** Metrics with a column of their own; any other numeric metric goes into `extra`. */
const COLUMNS = new Set(["avail", "latency_ms", "packet_loss_pct", "http_status", "cert_days_remaining"]);
const RESULTS_PER_NOTIFY = 40;
const rows = (list: readonly unknown[]) => sql`${JSON.stringify(list)}::jsonb`;

/** The columns of a LockedMonitor, for a caller that locks the monitors itself (the pushes, by token). */
export const LOCKED_MONITOR_COLUMNS = sql.raw(
  "id, name, host, check_type, target_type, target_id, enabled, status, retries, max_retries, interval_secs, retry_interval_secs, last_status_change_at, group_id, cardinality(vantage_agent_ids) > 0 as multi_vantage",
);

/** A locked row as read (LOCKED_MONITOR_COLUMNS) made a LockedMonitor. */
export function lockedMonitor(m: LockedMonitor & { last_status_change_at: string | Date | null }): LockedMonitor {
  return { ...m, last_status_change_at: m.last_status_change_at ? new Date(m.last_status_change_at) : null };
}

async function lockMonitors(tx: Db, ids: number[]): Promise<Map<number, LockedMonitor>> {
  // Locked in id order, so two batches touching the same monitors never deadlock.
  const list = await queryRows<LockedMonitor & { last_status_change_at: string | Date | null }>(
    tx,
    sql`select ${LOCKED_MONITOR_COLUMNS} from monitors where id = any(${`{${ids.join(",")}}`}::int[]) order by id for update`,
  );
  return new Map(list.map((m) => [m.id, lockedMonitor(m)]));
}

function sampleRow(r: MonitorResult, status: MonitorStatus) {
  const value = (name: string) => r.samples.find((s) => s.metric === name)?.value ?? null;
  const extra = Object.fromEntries(
    r.samples.filter((s) => !COLUMNS.has(s.metric) && typeof s.value === "number").map((s) => [s.metric, s.value]),
  );
  const int = (v: number | null) => (v === null ? null : Math.round(v));
  return {
    monitor_id: r.monitor_id,
    ts: r.checked_at,
    avail: r.up,
    latency_ms: r.latency_ms ?? value("latency_ms"),
    packet_loss_pct: value("packet_loss_pct"),
    http_status: int(value("http_status")),
    cert_days_remaining: int(value("cert_days_remaining")),
    extra: Object.keys(extra).length ? extra : null,
    msg: r.msg.slice(0, 2000),
    source: r.source,
    status,
  };
}

/**
 * The core, for callers already in a transaction (the agent link batch); the runner uses the verb below.
 * `alreadyLocked`: the results' monitors, locked in this transaction by the caller (the pushes lock them
 * by token), so they are not read twice.
 */
export async function recordMonitorResults(
  s: VerbScope,
  results: readonly MonitorResult[],
  alreadyLocked?: Map<number, LockedMonitor>,
): Promise<RecordOutcome> {
  const outcome: RecordOutcome = { recorded: 0, skipped: 0, events: 0, alerts: 0 };
  if (results.length === 0) return outcome;
  const ids = [...new Set(results.map((r) => r.monitor_id))].sort((a, b) => a - b);
  const locked = alreadyLocked ?? (await lockMonitors(s.tx, ids));
  const inMaintenance = await monitorsInMaintenance(s.tx, [...locked.keys()], s.now);

  const samples: ReturnType<typeof sampleRow>[] = [];
  const buckets = new Map<string, { monitor_id: number; minute: string; up: number; total: number }>();
  const events: {
    monitor_id: number;
    event_type: string;
    status_from: string;
    status_to: string;
    msg: string;
    duration_secs: number | null;
    at: string;
    detail: GroupJudgement["detail"] | null;
  }[] = [];
  const alerts: {
    monitor: LockedMonitor;
    kind: "down" | "up" | "degraded";
    eventIndex: number;
    result: MonitorResult;
    from: MonitorStatus;
  }[] = [];
  const finals = new Map<
    number,
    {
      id: number;
      status: string;
      retries: number;
      changed_at: string | null;
      polled_at: string;
      latency_ms: number | null;
      msg: string;
      retry_at: string | null;
      agent: boolean;
      deadline: string | null;
      window_start: string | null;
      window_hits: number | null;
    }
  >();

  const ordered = [...results].sort((a, b) => a.checked_at.localeCompare(b.checked_at));
  // Multi-vantage monitors are judged by their quorum over each point's last result (docs/adr/0441).
  // Only monitors with vantage points are judged so: none in the batch, no query.
  const vantage = await judgeVantageResults(
    s.tx,
    ordered.filter((r) => locked.get(r.monitor_id)?.enabled && locked.get(r.monitor_id)?.multi_vantage),
  );
  for (const point of ordered) {
    const m = locked.get(point.monitor_id);
    const v = vantage.get(point);
    if (!m?.enabled || v === "ignored") {
      outcome.skipped++;
      continue;
    }
    const r = v ? { ...point, msg: quorumMessage(v, point.msg) } : point;
    const at = new Date(r.checked_at);
    const maintenance = inMaintenance.has(m.id);
    const d = r.group
      ? decideGroup(m, r.group.verdict, r.msg, at, maintenance)
      : v
        ? decideQuorum(m, v.judgement, r.msg, at, maintenance)
        : decide(r.immediate ? { ...m, max_retries: 0 } : m, r, at, maintenance);
    const from = m.status;
    if (d.event) {
      events.push({ monitor_id: m.id, ...d.event, at: r.checked_at, detail: r.group?.detail ?? null });
      if (d.alert) alerts.push({ monitor: m, kind: d.alert, eventIndex: events.length - 1, result: r, from });
    }
    m.status = d.status;
    m.retries = d.retries;
    if (d.event) m.last_status_change_at = at;
    samples.push(sampleRow(point, d.status));
    // A quorum monitor's uptime counts its judgement (degraded is up), not each point's result.
    const countedUp = v ? (v.judgement.verdict === "none" ? null : v.judgement.verdict !== "down") : r.up;
    if (!maintenance && countedUp !== null) {
      const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000).toISOString();
      const key = `${m.id}|${minute}`;
      const b = buckets.get(key) ?? { monitor_id: m.id, minute, up: 0, total: 0 };
      b.total++;
      if (countedUp) b.up++;
      buckets.set(key, b);
    }
    finals.set(m.id, {
      id: m.id,
      status: d.status,
      retries: d.retries,
      changed_at: m.last_status_change_at?.toISOString() ?? null,
      polled_at: r.checked_at,
      latency_ms: r.latency_ms,
      msg: r.msg.slice(0, 2000),
      // A pending monitor is checked again after its retry interval, sooner than its next turn.
      retry_at: d.status === "pending" ? new Date(at.getTime() + d.next_check_secs * 1000).toISOString() : null,
      agent: r.source === "agent",
      deadline: r.push?.deadline ?? null,
      window_start: r.push?.window_start ?? null,
      window_hits: r.push?.window_hits ?? null,
    });
    outcome.recorded++;
  }
  if (outcome.recorded === 0) return outcome;

  // The writes do not depend on one another: sent together, they share one round trip (postgres.js
  // pipelines the statements of a transaction issued at once; PostgreSQL still runs them in this order).
  const writes: Promise<unknown>[] = [
    s.tx.execute(sql`
    insert into monitor_samples (monitor_id, ts, avail, latency_ms, packet_loss_pct, http_status, cert_days_remaining, extra, msg, source)
    select r.monitor_id, r.ts, r.avail, r.latency_ms, r.packet_loss_pct, r.http_status, r.cert_days_remaining, r.extra, r.msg, r.source
    from jsonb_to_recordset(${rows(samples)}) as r(monitor_id integer, ts timestamptz, avail boolean, latency_ms real, packet_loss_pct real, http_status integer, cert_days_remaining integer, extra jsonb, msg text, source text)`),
  ];
  if (buckets.size)
    writes.push(
      s.tx.execute(sql`
      insert into monitor_uptime_minutes (monitor_id, minute, up, total)
      select r.monitor_id, r.minute, r.up, r.total
      from jsonb_to_recordset(${rows([...buckets.values()].sort((a, b) => a.monitor_id - b.monitor_id || a.minute.localeCompare(b.minute)))}) as r(monitor_id integer, minute timestamptz, up integer, total integer)
      on conflict (monitor_id, minute) do update set up = monitor_uptime_minutes.up + excluded.up, total = monitor_uptime_minutes.total + excluded.total`),
    );
  // A push sets its monitor's next deadline (over any retry) and its count this minute.
  writes.push(
    s.tx.execute(sql`
    update monitors m set
      status = r.status, retries = r.retries, last_status_change_at = r.changed_at, last_polled_at = r.polled_at,
      last_latency_ms = r.latency_ms, last_msg = r.msg, claimed_by = null, claimed_at = null,
      next_check_at = coalesce(r.deadline, case when r.retry_at is not null then least(m.next_check_at, r.retry_at) else m.next_check_at end),
      probe_last_result_at = case when r.agent then ${s.now.toISOString()}::timestamptz else m.probe_last_result_at end,
      probe_execution_status = case when r.agent then 'ready' else m.probe_execution_status end,
      push_window_start = coalesce(r.window_start, m.push_window_start), push_window_hits = coalesce(r.window_hits, m.push_window_hits)
    from jsonb_to_recordset(${rows([...finals.values()])}) as r(id integer, status text, retries integer, changed_at timestamptz, polled_at timestamptz, latency_ms real, msg text, retry_at timestamptz, agent boolean, deadline timestamptz, window_start timestamptz, window_hits integer)
    where m.id = r.id`),
  );
  const inserting = events.length
    ? queryRows<{ id: number }>(
        s.tx,
        sql`
      insert into monitor_events (monitor_id, event_type, status_from, status_to, msg, duration_secs, created_at, detail)
      select r.monitor_id, r.event_type, r.status_from, r.status_to, r.msg, r.duration_secs, r.at, r.detail
      from jsonb_to_recordset(${rows(events.map((e, ord) => ({ ...e, ord })))}) as r(monitor_id integer, event_type text, status_from text, status_to text, msg text, duration_secs integer, at timestamptz, ord integer, detail jsonb)
      order by r.ord
      returning id`,
      )
    : Promise.resolve([]);
  const [inserted] = await Promise.all([inserting, ...writes]);

  let eventIds: number[] = [];
  if (events.length) {
    // Rows are inserted, and returned, in the order of the select.
    eventIds = inserted.map((e) => Number(e.id));
    outcome.events = events.length;
    for (const e of events)
      s.emit("monitors", {
        type: "status",
        monitor_id: e.monitor_id,
        status: e.status_to,
        status_from: e.status_from,
        msg: e.msg.slice(0, 500),
        ts: e.at,
      });
  }
  // A node's status follows the monitors watching it (docs/adr/0466): only a change can change it.
  const watchedNodes = events.flatMap((e) => {
    const m = locked.get(e.monitor_id);
    return m?.target_type === "hardware" && m.target_id != null ? [m.target_id] : [];
  });
  if (watchedNodes.length) await followMonitors(s, watchedNodes);
  await enqueueAlerts(
    s,
    alerts.map((a) => {
      const label = a.monitor.name;
      const what = ALERT_TEXT[a.kind];
      return {
        kind: `monitor.${a.kind}`,
        severity: what.severity,
        monitor_id: a.monitor.id,
        target_type: a.monitor.target_type,
        target_id: a.monitor.target_id,
        title: `${label} ${what.title}`,
        // A push or group monitor has no host: its type alone says what it is.
        body: `${label} (${[a.monitor.check_type, a.monitor.host].filter(Boolean).join(" ")}) ${what.body}: ${a.result.msg}`,
        detail: {
          event_id: eventIds[a.eventIndex] ?? null,
          status_from: a.from,
          status: a.kind,
          msg: a.result.msg.slice(0, 500),
          latency_ms: a.result.latency_ms,
          host: a.monitor.host,
          check_type: a.monitor.check_type,
        },
        occurred_at: new Date(a.result.checked_at),
      };
    }),
  );
  outcome.alerts += alerts.length;
  for (let i = 0; i < samples.length; i += RESULTS_PER_NOTIFY)
    s.emit("monitors", {
      type: "results",
      results: samples
        .slice(i, i + RESULTS_PER_NOTIFY)
        .map((r) => ({ monitor_id: r.monitor_id, status: r.status, up: r.avail, latency_ms: r.latency_ms, ts: r.ts })),
    });
  // The groups these monitors belong to follow them, one call per level up the chain (docs/adr/0440).
  // Only monitors in a group have one to follow: none in the batch, no query.
  const groups = await groupsToFollow(
    s,
    results.filter((r) => finals.has(r.monitor_id) && locked.get(r.monitor_id)?.group_id != null),
    events.map((e) => e.monitor_id),
  );
  if (groups.length) await recordMonitorResults(s, groups);
  return outcome;
}

/** The runner's batch: one transaction for everything its checks answered since the last flush. */
export const recordCheckResults = defineVerb<{ results: MonitorResult[] }, RecordOutcome>({ scope: WRITE_MONITORS }, (s, { results }) =>
  recordMonitorResults(s, results),
);
