// GET /monitors/target-summary?target_type=&target_ids=: one row per target with at least one monitor.
// Primary = the lowest id; status: any down -> down, else any up -> up, else the primary's; enabled if
// any is; last_polled_at the latest; latency and 24 h uptime the primary's.
import { and, asc, eq, inArray } from "drizzle-orm";
import { monitors } from "../../db/schema/index.ts";
import type { TargetSummaryShape } from "../../schemas/monitors.ts";
import { defineRead } from "../verb.ts";
import type { MonitorRow } from "./monitor-row.ts";
import { agentNames, probeBlock, uptime24h } from "./present.ts";
import { READ_MONITORS } from "./scopes.ts";

export const targetSummary = defineRead<{ target_type: string; target_ids: number[] | null }, TargetSummaryShape[]>(
  { scope: READ_MONITORS },
  async (ctx, input) => {
    if (input.target_ids !== null && input.target_ids.length === 0) return [];
    const rows = await ctx.db
      .select()
      .from(monitors)
      .where(and(eq(monitors.target_type, input.target_type), input.target_ids ? inArray(monitors.target_id, input.target_ids) : undefined))
      .orderBy(asc(monitors.target_id), asc(monitors.id))
      .limit(10_000);
    const byTarget = new Map<number, MonitorRow[]>();
    for (const r of rows) if (r.target_id != null) byTarget.set(r.target_id, [...(byTarget.get(r.target_id) ?? []), r]);
    const primaries = [...byTarget.values()].map((list) => list[0]!);
    const agentIds = [...new Set(primaries.map((p) => p.probe_agent_id).filter((id): id is number => id != null))];
    const [uptimes, names] = await Promise.all([
      uptime24h(
        ctx.db,
        primaries.map((p) => p.id),
        ctx.clock.now(),
      ),
      agentNames(ctx.db, agentIds),
    ]);
    return [...byTarget.entries()].map(([targetId, list]) => {
      const primary = list[0]!;
      const status = list.some((m) => m.status === "down") ? "down" : list.some((m) => m.status === "up") ? "up" : primary.status;
      const polled = list.map((m) => m.last_polled_at?.getTime() ?? 0).reduce((a, b) => Math.max(a, b), 0);
      return {
        target_type: input.target_type,
        target_id: targetId,
        monitor_id: primary.id,
        monitor_ids: list.map((m) => m.id),
        enabled: list.some((m) => m.enabled),
        status: status as TargetSummaryShape["status"],
        latency_ms: primary.last_latency_ms,
        uptime_pct_24h: uptimes.get(primary.id) ?? null,
        last_polled_at: polled > 0 ? new Date(polled).toISOString() : null,
        ...probeBlock(primary, names),
      };
    });
  },
);
