// GET /monitors/{id}'s `vantage_results` (docs/adr/0441): each vantage point of a multi-vantage monitor
// with its last result, whether that result still counts in the quorum, and (agents) the last dispatch.
// A point that has neither answered nor been dispatched to yet is listed with nulls.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { checkBudget } from "../../domain/monitors/check-types.ts";
import { effectiveConfig } from "../../domain/monitors/config.ts";
import { freshnessMs, SIDECAR_VANTAGE, vantagePoints } from "../../domain/monitors/quorum.ts";
import type { VantageResultShape } from "../../schemas/monitors.ts";
import type { MonitorRow } from "./monitor-row.ts";
import { agentNames } from "./present.ts";

interface VantageRow {
  vantage: string;
  status: "up" | "down" | null;
  msg: string | null;
  latency_ms: number | null;
  checked_at: string | Date | null;
  dispatch_status: string | null;
  dispatch_reason: string | null;
  dispatched_at: string | Date | null;
}

const iso = (d: string | Date | null) => (d === null ? null : new Date(d).toISOString());

export async function vantageResults(db: Db, row: MonitorRow, now: Date): Promise<VantageResultShape[]> {
  const points = vantagePoints(row);
  if (row.vantage_agent_ids.length === 0) return [];
  const [stored, names] = await Promise.all([
    queryRows<VantageRow>(
      db,
      sql`select vantage, status, msg, latency_ms, checked_at, dispatch_status, dispatch_reason, dispatched_at
          from monitor_vantage_results where monitor_id = ${row.id}`,
    ),
    agentNames(db, row.vantage_agent_ids),
  ]);
  const byPoint = new Map(stored.map((r) => [r.vantage, r]));
  const windowMs = freshnessMs(row.interval_secs, checkBudget(row.check_type, effectiveConfig(row.check_type, row.config)).budgetMs);
  return points.map((vantage) => {
    const r = byPoint.get(vantage);
    const agentId = vantage === SIDECAR_VANTAGE ? null : Number(vantage);
    const checked = r?.checked_at ? new Date(r.checked_at) : null;
    return {
      vantage,
      agent: agentId === null ? null : { id: agentId, name: names.get(agentId) ?? null },
      status: r?.status ?? null,
      msg: r?.msg ?? null,
      latency_ms: r?.latency_ms ?? null,
      checked_at: checked?.toISOString() ?? null,
      fresh: checked !== null && now.getTime() - checked.getTime() <= windowMs,
      dispatch_status: r?.dispatch_status ?? null,
      dispatch_reason: r?.dispatch_reason ?? null,
      dispatched_at: iso(r?.dispatched_at ?? null),
    };
  });
}
