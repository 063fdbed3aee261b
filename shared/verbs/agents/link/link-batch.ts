// The write-behind batch of the sidecar's links: everything the agents said in the last ~50-100 ms,
// committed in ONE transaction with one statement per kind of row (the rows travel as one JSON
// parameter each, expanded by jsonb_to_recordset, as telemetry/push-samples.ts does). No transaction per
// heartbeat: at 10,000 links that would be ~800 a second. Only after this commits does the sidecar
// acknowledge the frames (ping {ack_seq}), so nothing acknowledged is ever lost.
//
// Every statement joins `agents`, so a row for an agent deleted meanwhile is skipped instead of
// failing the batch for every other agent in it; payloads were checked by shared/agents/payloads.ts
// (bounded numbers, no NUL), so one agent cannot make the batch fail either.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/database.ts";
import { agentFrameValues, liveRowValues } from "../../../domain/alert-rules/metrics.ts";
import type { CheckSample } from "../../../domain/monitors/state.ts";
import { evaluateSamples, type MetricSample } from "../../alert-rules/evaluate-samples.ts";
import { type MonitorResult, recordMonitorResults } from "../../monitors/run/record-results.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { announcePresence } from "../notify.ts";
import { recordRolloutProgress, type UpdateReport } from "../rollouts/progress.ts";
import { ADMIN_AGENTS } from "../scopes.ts";

export interface SeenRow {
  agent_id: number;
  /** ISO; the latest frame heard from the agent in this batch. */
  at: string;
  spool_depth?: number | undefined;
  spool_bytes?: number | undefined;
}
export interface SampleRow {
  agent_id: number;
  sample_id: string;
  collected_at: string;
  status: string;
  summary: Record<string, unknown>;
  payload: Record<string, unknown>;
}
export interface ResultRow {
  agent_id: number;
  run_id: string;
  outcome: string;
  up: boolean;
  finished_at: string | null;
  samples: unknown[];
  msg: string | null;
  details: Record<string, unknown> | null;
}
export interface ReadinessRow {
  agent_id: number;
  readiness: Record<string, unknown>[];
  networks: unknown[] | null;
}
export interface EventRow {
  agent_id: number;
  event_type: string;
  detail: Record<string, unknown> | null;
  at: string;
}
export interface UpdateDoneRow {
  agent_id: number;
  version: string;
}
export interface LinkEndRow {
  agent_id: number;
  owner: string;
  /** ISO of the link's start: only that link's record is cleared, never a newer one's. */
  connected_since: string;
  reason: string;
}

export interface LinkBatch {
  seen: SeenRow[];
  samples: SampleRow[];
  results: ResultRow[];
  readiness: ReadinessRow[];
  events: EventRow[];
  updates_done: UpdateDoneRow[];
  /** Updates the sidecar sent as the `update` frame: marked sent_at, never sent again (docs/adr/0430). */
  updates_sent: UpdateDoneRow[];
  ended: LinkEndRow[];
}

export interface LinkBatchOutcome {
  samples_stored: number;
  results_stored: number;
  late_results: number;
}

export const emptyLinkBatch = (): LinkBatch => ({
  seen: [],
  samples: [],
  results: [],
  readiness: [],
  events: [],
  updates_done: [],
  updates_sent: [],
  ended: [],
});

/** The rows as one jsonb parameter. */
const rows = (list: readonly unknown[]) => sql`${JSON.stringify(list)}::jsonb`;

async function markSeen(tx: Db, seen: SeenRow[]): Promise<void> {
  await tx.execute(sql`
    update agents a set
      last_seen_at = greatest(coalesce(a.last_seen_at, r.at), r.at),
      spool_depth = coalesce(r.spool_depth, a.spool_depth),
      spool_bytes = coalesce(r.spool_bytes, a.spool_bytes),
      spool_reported_at = case when r.spool_depth is null and r.spool_bytes is null then a.spool_reported_at else r.at end
    from jsonb_to_recordset(${rows(seen)}) as r(agent_id integer, at timestamptz, spool_depth integer, spool_bytes bigint)
    where a.id = r.agent_id and a.status = 'active'`);
}

/**
 * Samples once each (unique (agent_id, sample_id): a frame re-sent after a reconnect is skipped), the
 * linked node's live metrics for the new ones (source `agent`), and each agent's latest frame.
 */
async function storeSamples(
  tx: Db,
  samples: SampleRow[],
  now: Date,
): Promise<{ stored: number; hardware: number[]; metrics: MetricSample[] }> {
  const num = (key: string, type: string) => sql.raw(`(r.summary->>'${key}')::${type}`);
  const list = await queryRows<{ agent_id: number; sample_id: string; hardware_id: number | null; ts: Date | string }>(
    tx,
    sql`
    with r as (
      select * from jsonb_to_recordset(${rows(samples)})
        as r(agent_id integer, sample_id text, collected_at timestamptz, status text, summary jsonb, payload jsonb)
    ), ins as (
      insert into agent_host_samples (agent_id, hardware_id, ts, cpu_pct, mem_pct, disk_pct, load_1, net_rx_bps, net_tx_bps, swap_pct, max_temp_c, uptime_s, status, sample_id)
      select r.agent_id, a.hardware_id, r.collected_at, ${num("cpu_pct", "real")}, ${num("mem_pct", "real")}, ${num("root_disk_pct", "real")},
        ${num("load_1", "real")}, ${num("net_rx_bps", "float8")}, ${num("net_tx_bps", "float8")}, ${num("swap_pct", "real")},
        ${num("max_temp_c", "real")}, ${num("uptime_s", "float8")}, r.status, r.sample_id
      from r join agents a on a.id = r.agent_id
      on conflict (agent_id, sample_id) do nothing
      returning agent_id, sample_id, hardware_id, ts, cpu_pct, mem_pct, disk_pct, max_temp_c, net_rx_bps, net_tx_bps, uptime_s
    ), live as (
      insert into hardware_live_metrics (hardware_id, ts, cpu_pct, mem_pct, disk_pct, temp_c, net_rx_bps, net_tx_bps, uptime_s, source)
      select hardware_id, ts, cpu_pct, mem_pct, disk_pct, max_temp_c, net_rx_bps, net_tx_bps, uptime_s, 'agent' from ins where hardware_id is not null
      returning 1
    ), latest as (
      insert into agent_latest_telemetry (agent_id, sample_id, collected_at, status, summary, payload, received_at)
      select distinct on (r.agent_id) r.agent_id, r.sample_id, r.collected_at, r.status, r.summary, r.payload, ${now.toISOString()}::timestamptz
      from r join ins on ins.agent_id = r.agent_id and ins.sample_id = r.sample_id
      order by r.agent_id, r.collected_at desc
      on conflict (agent_id) do update set sample_id = excluded.sample_id, collected_at = excluded.collected_at, status = excluded.status,
        summary = excluded.summary, payload = excluded.payload, received_at = excluded.received_at
      where excluded.collected_at >= agent_latest_telemetry.collected_at
      returning 1
    )
    select ins.agent_id, ins.sample_id, ins.hardware_id, ins.ts from ins`,
  );
  // The samples stored now (not the repeats) of agents on a node are what the alert rules judge: the
  // frame's host.* values and, as the live row written above, its live.* ones.
  const frames = new Map(samples.map((x) => [`${x.agent_id}:${x.sample_id}`, x]));
  const metrics = list.flatMap((r): MetricSample[] => {
    const frame = frames.get(`${r.agent_id}:${r.sample_id}`);
    if (r.hardware_id === null || !frame) return [];
    const host = agentFrameValues(frame.summary, frame.payload.filesystems);
    const live = liveRowValues({
      cpu_pct: host["host.cpu_pct"],
      mem_pct: host["host.mem_pct"],
      disk_pct: host["host.disk_pct"],
      temp_c: host["host.max_temp_c"],
      net_rx_bps: host["host.net_rx_bps"],
      net_tx_bps: host["host.net_tx_bps"],
    });
    return [{ hardware_id: r.hardware_id, ts: new Date(r.ts), values: { ...host, ...live } }];
  });
  return { stored: list.length, hardware: [...new Set(list.flatMap((r) => (r.hardware_id === null ? [] : [r.hardware_id])))], metrics };
}

/**
 * A result finishes its run once: a run already answered (or cancelled) ignores a second result; one that
 * arrives after its deadline (the run may have expired meanwhile) is kept and marked late.
 */
async function storeResults(tx: Db, results: ResultRow[], now: Date): Promise<{ stored: number; late: number; monitors: MonitorResult[] }> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const out = await queryRows<{
    late: boolean;
    agent_id: number;
    monitor_id: number | null;
    outcome: string;
    up: boolean;
    samples: CheckSample[] | null;
    msg: string | null;
    finished_at: string | Date;
  }>(
    tx,
    sql`
    update agent_probe_runs p set
      state = r.outcome, up = r.up, samples = r.samples, msg = r.msg, details = r.details,
      finished_at = coalesce(r.finished_at, ${at}), received_at = ${at},
      late = (p.state = 'expired' or ${at} > p.deadline_at)
    from jsonb_to_recordset(${rows(results)}) as r(agent_id integer, run_id text, outcome text, up boolean, finished_at timestamptz, samples jsonb, msg text, details jsonb)
    where p.run_id = r.run_id and p.agent_id = r.agent_id and p.state in ('queued', 'dispatched', 'expired')
    returning p.late, p.agent_id, p.monitor_id, p.state as outcome, p.up, p.samples, p.msg, p.finished_at`,
  );
  // A monitor's run answered (or failed to run) is that monitor's result (monitors/run/record-results.ts).
  const monitors = out.flatMap((r): MonitorResult[] =>
    r.monitor_id === null || (r.outcome !== "completed" && r.outcome !== "execution_error")
      ? []
      : [
          {
            monitor_id: r.monitor_id,
            checked_at: new Date(r.finished_at).toISOString(),
            up: r.outcome === "completed" && r.up,
            latency_ms: r.samples?.find((x) => x.metric === "latency_ms")?.value ?? null,
            samples: r.samples ?? [],
            msg: r.msg ?? r.outcome,
            source: "agent",
            agent_id: r.agent_id,
          },
        ],
  );
  // A run the agent refused (over its max_concurrent, out of scope) is no result: the monitor's probe
  // status says why, and its check state stays as it was.
  const refused = out.flatMap((r) =>
    r.monitor_id !== null && r.outcome === "rejected"
      ? [{ monitor_id: r.monitor_id, reason: (r.msg ?? "rejected by the agent").slice(0, 500) }]
      : [],
  );
  if (refused.length)
    await tx.execute(sql`
      update monitors m set probe_execution_status = 'unavailable', probe_execution_reason = r.reason, probe_last_result_at = ${at}
      from jsonb_to_recordset(${rows(refused)}) as r(monitor_id integer, reason text)
      where m.id = r.monitor_id`);
  return { stored: out.length, late: out.filter((r) => r.late).length, monitors };
}

async function storeReadiness(tx: Db, list: ReadinessRow[]): Promise<void> {
  await tx.execute(sql`
    update agents a set readiness = r.readiness, networks = coalesce(r.networks, a.networks)
    from jsonb_to_recordset(${rows(list)}) as r(agent_id integer, readiness jsonb, networks jsonb)
    where a.id = r.agent_id`);
}

async function storeEvents(tx: Db, events: EventRow[]): Promise<void> {
  await tx.execute(sql`
    insert into agent_events (agent_id, event_type, detail, created_at)
    select r.agent_id, r.event_type, r.detail, r.at
    from jsonb_to_recordset(${rows(events)}) as r(agent_id integer, event_type text, detail jsonb, at timestamptz)
    join agents a on a.id = r.agent_id`);
}

/** An update the agent reports finished (succeeded, failed, rolled back) is no longer sent on link. */
async function settleUpdates(tx: Db, done: UpdateDoneRow[]): Promise<void> {
  await tx.execute(sql`
    update agents a set pending_update = null
    from jsonb_to_recordset(${rows(done)}) as r(agent_id integer, version text)
    where a.id = r.agent_id and a.pending_update->>'version' = r.version`);
}

/** An update sent once is not sent again: not on the next link, not by another sidecar (outbound.ts). */
async function markUpdatesSent(tx: Db, sent: UpdateDoneRow[], now: Date): Promise<void> {
  await tx.execute(sql`
    update agents a set pending_update = a.pending_update || jsonb_build_object('sent_at', ${now.toISOString()}::text)
    from jsonb_to_recordset(${rows(sent)}) as r(agent_id integer, version text)
    where a.id = r.agent_id and a.pending_update->>'version' = r.version and not (a.pending_update ? 'sent_at')`);
}

/** An update the agent says it started shows as started (GET /agents' update.state), rollout or not. */
async function markUpdatesStarted(tx: Db, started: UpdateDoneRow[], now: Date): Promise<void> {
  await tx.execute(sql`
    update agents a set pending_update = a.pending_update || jsonb_build_object('started_at', ${now.toISOString()}::text)
    from jsonb_to_recordset(${rows(started)}) as r(agent_id integer, version text)
    where a.id = r.agent_id and a.pending_update->>'version' = r.version and not (a.pending_update ? 'started_at')`);
}

/** Links that ended: `disconnected` events, and presence offline where no newer link took over. */
async function endLinks(s: VerbScope, ended: LinkEndRow[]): Promise<void> {
  const cleared = await queryRows<{ id: number }>(
    s.tx,
    sql`
    update agents a set link_owner = null, connected_since = null
    from jsonb_to_recordset(${rows(ended)}) as r(agent_id integer, owner text, connected_since timestamptz)
    where a.id = r.agent_id and a.link_owner = r.owner and a.connected_since = r.connected_since
    returning a.id`,
  );
  const at = s.now.toISOString();
  await storeEvents(
    s.tx,
    ended.map((e) => ({ agent_id: e.agent_id, event_type: "disconnected", detail: { reason: e.reason, owner: e.owner }, at })),
  );
  const reasons = new Map(ended.map((e) => [e.agent_id, e.reason]));
  for (const { id } of cleared) announcePresence(s, id, "disconnected", { reason: reasons.get(id) ?? null });
}

/** The update.status reports among the events (`update_<phase>` with {version, error}), in the order received. */
function updateReports(events: readonly EventRow[]): UpdateReport[] {
  return events.flatMap((e): UpdateReport[] => {
    const phase = /^update_(started|succeeded|failed|rolled_back)$/.exec(e.event_type)?.[1] as UpdateReport["phase"] | undefined;
    const version = e.detail?.version;
    if (!phase || typeof version !== "string") return [];
    const error = e.detail?.error;
    return [{ agent_id: e.agent_id, phase, version, error: typeof error === "string" ? error : null }];
  });
}

export const applyLinkBatch = defineVerb<LinkBatch, LinkBatchOutcome>({ scope: ADMIN_AGENTS }, async (s, batch) => {
  const outcome: LinkBatchOutcome = { samples_stored: 0, results_stored: 0, late_results: 0 };
  // Rollouts first: their row locks are taken before any agent row's, the order every rollout writer keeps
  // (rollouts/advance.ts), so a wave queued here cannot deadlock with another sidecar's batch.
  const reports = updateReports(batch.events);
  if (reports.length) await recordRolloutProgress(s, reports);
  if (batch.seen.length) await markSeen(s.tx, batch.seen);
  if (batch.samples.length) {
    const stored = await storeSamples(s.tx, batch.samples, s.now);
    outcome.samples_stored = stored.stored;
    if (stored.hardware.length) s.emit("telemetry", { source: "agent", count: stored.stored, hardware_ids: stored.hardware.slice(0, 100) });
    await evaluateSamples(s, stored.metrics);
  }
  if (batch.results.length) {
    const results = await storeResults(s.tx, batch.results, s.now);
    outcome.results_stored = results.stored;
    outcome.late_results = results.late;
    if (results.monitors.length) await recordMonitorResults(s, results.monitors);
  }
  if (batch.readiness.length) await storeReadiness(s.tx, batch.readiness);
  if (batch.events.length) await storeEvents(s.tx, batch.events);
  if (batch.updates_sent.length) await markUpdatesSent(s.tx, batch.updates_sent, s.now);
  const started = reports.filter((r) => r.phase === "started").map((r) => ({ agent_id: r.agent_id, version: r.version }));
  if (started.length) await markUpdatesStarted(s.tx, started, s.now);
  if (batch.updates_done.length) await settleUpdates(s.tx, batch.updates_done);
  if (batch.ended.length) await endLinks(s, batch.ended);
  return outcome;
});
