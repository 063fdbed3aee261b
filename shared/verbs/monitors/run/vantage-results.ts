// The recording path's part for multi-vantage monitors (docs/adr/0441): each result of such a monitor is
// its vantage point's last result (monitor_vantage_results, upserted in the caller's transaction), and
// the monitor's status is the quorum judgement over the fresh points (shared/domain/monitors/quorum.ts)
// rather than that one result. The results of single-point monitors are not touched here.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/database.ts";
import { checkBudget, type CheckType } from "../../../domain/monitors/check-types.ts";
import { effectiveConfig } from "../../../domain/monitors/config.ts";
import {
  freshnessMs,
  type Judgement,
  judge,
  SIDECAR_VANTAGE,
  type VantageConfig,
  type VantagePointResult,
  vantagePoints,
} from "../../../domain/monitors/quorum.ts";
import type { MonitorResult } from "./monitor-result.ts";

/** A result's judgement, or `ignored`: it came from a point the monitor no longer names. */
export type VantageVerdict = { judgement: Judgement; vantage: string } | "ignored";

interface QuorumMonitor extends VantageConfig {
  id: number;
  check_type: CheckType;
  config: Record<string, unknown>;
  interval_secs: number;
}

const rows = (list: readonly unknown[]) => sql`${JSON.stringify(list)}::jsonb`;
const idArray = (ids: readonly number[]) => `{${ids.join(",")}}`;

/** The vantage point a result speaks for: the sidecar, or the agent that ran it. */
export const vantageOf = (r: MonitorResult) => (r.source === "agent" ? String(r.agent_id ?? "") : SIDECAR_VANTAGE);

async function quorumMonitors(tx: Db, ids: readonly number[]): Promise<Map<number, QuorumMonitor>> {
  const list = await queryRows<QuorumMonitor>(
    tx,
    sql`select id, check_type, config, interval_secs, vantage_agent_ids, vantage_sidecar, quorum from monitors
        where id = any(${idArray(ids)}::int[]) and cardinality(vantage_agent_ids) > 0`,
  );
  return new Map(list.map((m) => [m.id, m]));
}

async function lastResults(tx: Db, ids: readonly number[]): Promise<Map<number, Map<string, VantagePointResult>>> {
  const list = await queryRows<{ monitor_id: number; vantage: string; status: string; checked_at: string | Date }>(
    tx,
    sql`select monitor_id, vantage, status, checked_at from monitor_vantage_results
        where monitor_id = any(${idArray(ids)}::int[]) and checked_at is not null`,
  );
  const out = new Map<number, Map<string, VantagePointResult>>();
  for (const r of list) {
    const points = out.get(r.monitor_id) ?? new Map<string, VantagePointResult>();
    points.set(r.vantage, { vantage: r.vantage, up: r.status === "up", checked_at: new Date(r.checked_at) });
    out.set(r.monitor_id, points);
  }
  return out;
}

/**
 * Stores each multi-vantage result as its point's last result and judges the monitor as of that result,
 * in checked_at order (the caller's order), so a batch holding several points' results judges each in turn.
 * The caller has locked the monitors.
 */
export async function judgeVantageResults(tx: Db, results: readonly MonitorResult[]): Promise<Map<MonitorResult, VantageVerdict>> {
  const verdicts = new Map<MonitorResult, VantageVerdict>();
  if (results.length === 0) return verdicts;
  const monitors = await quorumMonitors(tx, [...new Set(results.map((r) => r.monitor_id))]);
  if (monitors.size === 0) return verdicts;
  const last = await lastResults(tx, [...monitors.keys()]);
  const written = new Map<
    string,
    { monitor_id: number; vantage: string; status: string; msg: string; latency_ms: number | null; checked_at: string }
  >();
  for (const r of results) {
    const m = monitors.get(r.monitor_id);
    if (!m) continue;
    const vantage = vantageOf(r);
    if (!vantagePoints(m).includes(vantage)) {
      verdicts.set(r, "ignored");
      continue;
    }
    const at = new Date(r.checked_at);
    const points = last.get(m.id) ?? new Map<string, VantagePointResult>();
    last.set(m.id, points);
    const previous = points.get(vantage);
    // A late answer older than the point's last result judges as of its time but does not replace it.
    if (!previous || previous.checked_at <= at) {
      points.set(vantage, { vantage, up: r.up, checked_at: at });
      written.set(`${m.id}|${vantage}`, {
        monitor_id: m.id,
        vantage,
        status: r.up ? "up" : "down",
        msg: r.msg.slice(0, 2000),
        latency_ms: r.latency_ms,
        checked_at: r.checked_at,
      });
    }
    const { budgetMs } = checkBudget(m.check_type, effectiveConfig(m.check_type, m.config));
    verdicts.set(r, { judgement: judge(m, points, at, freshnessMs(m.interval_secs, budgetMs)), vantage });
  }
  if (written.size)
    await tx.execute(sql`
      insert into monitor_vantage_results (monitor_id, vantage, status, msg, latency_ms, checked_at)
      select r.monitor_id, r.vantage, r.status, r.msg, r.latency_ms, r.checked_at
      from jsonb_to_recordset(${rows([...written.values()])}) as r(monitor_id integer, vantage text, status text, msg text, latency_ms real, checked_at timestamptz)
      on conflict (monitor_id, vantage) do update set status = excluded.status, msg = excluded.msg, latency_ms = excluded.latency_ms, checked_at = excluded.checked_at`);
  return verdicts;
}

/** The message a judgement gives the monitor's event, alert and last message. */
export function quorumMessage(v: { judgement: Judgement; vantage: string }, pointMsg: string): string {
  const j = v.judgement;
  const point = v.vantage === SIDECAR_VANTAGE ? "sidecar" : `agent ${v.vantage}`;
  return `${j.down} of ${j.points} vantage points report down (quorum ${j.quorum}, ${j.fresh} fresh); ${point}: ${pointMsg}`;
}
