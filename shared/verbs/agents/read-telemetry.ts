// What agents report, read back: GET /agents/{id}/telemetry (the latest frame whole, the collectors'
// readiness, the grant, the spool), /agents/{id}/telemetry/history, /agents/metrics/series and
// /agents/presence (spec/catalogue.tsv, group agents).
import { and, eq, inArray, ne } from "drizzle-orm";
import type * as v from "valibot";
import { isOnline } from "../../agents/control.ts";
import type { Db } from "../../db/database.ts";
import { agentLatestTelemetry, agents, hardware } from "../../db/schema/index.ts";
import { effectiveGrants } from "../../domain/agents/capabilities.ts";
import type { AgentPresence, AgentTelemetry, HistoryRange, MetricsSeries, SummaryValues, TelemetryHistory } from "../../schemas/agents.ts";
import { iso } from "../resources/present.ts";
import { defineRead } from "../verb.ts";
import { requireAgent } from "./agent-row.ts";
import { bucketedSamples, HISTORY_PLANS, SERIES_PLAN } from "./sample-buckets.ts";
import { READ_AGENTS } from "./scopes.ts";

type LatestRow = typeof agentLatestTelemetry.$inferSelect;

function summaryOf(stored: Record<string, number | null> | null | undefined): SummaryValues {
  const n = (k: string) => (typeof stored?.[k] === "number" ? stored[k] : null);
  return {
    cpu_pct: n("cpu_pct"),
    mem_pct: n("mem_pct"),
    root_disk_pct: n("root_disk_pct"),
    net_rx_bps: n("net_rx_bps"),
    net_tx_bps: n("net_tx_bps"),
    max_temp_c: n("max_temp_c"),
    load_1: n("load_1"),
    uptime_s: n("uptime_s"),
  };
}

const text = (x: unknown) => (typeof x === "string" ? x : null);

/** capability.readiness entries as the agent sent them, each field checked. */
function readinessList(entries: readonly unknown[]) {
  return entries.flatMap((e) => {
    const r = (e ?? {}) as Record<string, unknown>;
    if (typeof r.collector !== "string" || typeof r.state !== "string") return [];
    const missing = Array.isArray(r.missing) ? r.missing.filter((m): m is string => typeof m === "string") : [];
    return [
      {
        collector: r.collector,
        state: r.state,
        reason: text(r.reason),
        remediation: text(r.remediation),
        missing,
        updated_at: text(r.updated_at),
      },
    ];
  });
}

export const agentTelemetry = defineRead<{ id: number }, v.InferInput<typeof AgentTelemetry>>(
  { scope: READ_AGENTS },
  async (ctx, { id }) => {
    const agent = await requireAgent(ctx.db, id);
    const [latest] = await ctx.db.select().from(agentLatestTelemetry).where(eq(agentLatestTelemetry.agent_id, id));
    // Only an active agent's grants are in force; a pending one's are what approval would give.
    const capability = agent.status === "active" ? effectiveGrants(agent.capabilities).host_telemetry : { enabled: false, config: {} };
    return {
      latest: latest
        ? {
            sample_id: latest.sample_id,
            collected_at: iso(latest.collected_at)!,
            status: latest.status,
            summary: summaryOf(latest.summary),
            payload: latest.payload,
            // Its samples also count as the linked hardware node's telemetry.
            projected: agent.hardware_id !== null,
          }
        : null,
      readiness: readinessList(agent.readiness ?? []),
      capability,
      spool: { depth: agent.spool_depth, bytes: agent.spool_bytes, reported_at: iso(agent.spool_reported_at) },
      hardware_id: agent.hardware_id,
    };
  },
);

export const agentTelemetryHistory = defineRead<{ id: number; range: HistoryRange }, v.InferInput<typeof TelemetryHistory>>(
  { scope: READ_AGENTS },
  async (ctx, { id, range }) => {
    await requireAgent(ctx.db, id);
    const plan = HISTORY_PLANS[range];
    const points = (await bucketedSamples(ctx.db, [id], plan, ctx.clock.now())).get(id) ?? [];
    return { range, bucket_s: plan.bucketS, points };
  },
);

/** The agents `ids` names, or when it is absent every agent not rejected or revoked. */
async function agentsFor(db: Db, ids: number[] | undefined) {
  if (ids === undefined)
    return db
      .select()
      .from(agents)
      .where(and(ne(agents.status, "rejected"), ne(agents.status, "revoked")))
      .orderBy(agents.id);
  if (ids.length === 0) return [];
  return db.select().from(agents).where(inArray(agents.id, ids)).orderBy(agents.id);
}

export const agentMetricsSeries = defineRead<{ ids: number[] | undefined }, v.InferInput<typeof MetricsSeries>>(
  { scope: READ_AGENTS },
  async (ctx, { ids }) => {
    const rows = await agentsFor(ctx.db, ids);
    const series = await bucketedSamples(
      ctx.db,
      rows.map((r) => r.id),
      SERIES_PLAN,
      ctx.clock.now(),
    );
    return [...series].map(([agent_id, points]) => ({
      agent_id,
      points: points.map((p) => ({
        collected_at: p.collected_at,
        cpu_pct: p.summary.cpu_pct,
        mem_pct: p.summary.mem_pct,
        net_rx_bps: p.summary.net_rx_bps,
        net_tx_bps: p.summary.net_tx_bps,
      })),
    }));
  },
);

export const agentPresence = defineRead<{ ids: number[] | undefined }, v.InferInput<typeof AgentPresence>[]>(
  { scope: READ_AGENTS },
  async (ctx, { ids }) => {
    const rows = await agentsFor(ctx.db, ids);
    if (rows.length === 0) return [];
    const hardwareIds = rows.map((r) => r.hardware_id).filter((h): h is number => h !== null);
    const [nodes, latest] = await Promise.all([
      hardwareIds.length === 0
        ? []
        : ctx.db
            .select({ id: hardware.id, name: hardware.name, ip_address: hardware.ip_address, mac_address: hardware.mac_address })
            .from(hardware)
            .where(inArray(hardware.id, hardwareIds)),
      ctx.db
        .select()
        .from(agentLatestTelemetry)
        .where(
          inArray(
            agentLatestTelemetry.agent_id,
            rows.map((r) => r.id),
          ),
        ),
    ]);
    const nodeById = new Map(nodes.map((n) => [n.id, n]));
    const latestById = new Map<number, LatestRow>(latest.map((l) => [l.agent_id, l]));
    const now = ctx.clock.now();
    return rows.map((r) => {
      const l = latestById.get(r.id);
      return {
        agent_id: r.id,
        online: isOnline(r, now),
        connected_since: iso(r.connected_since),
        last_seen_at: iso(r.last_seen_at),
        capabilities: effectiveGrants(r.capabilities),
        hardware: r.hardware_id === null ? null : (nodeById.get(r.hardware_id) ?? null),
        latest: l ? { collected_at: iso(l.collected_at)!, ...summaryOf(l.summary) } : null,
        spool_depth: r.spool_depth,
        spool_bytes: r.spool_bytes,
        spool_reported_at: iso(r.spool_reported_at),
      };
    });
  },
);
