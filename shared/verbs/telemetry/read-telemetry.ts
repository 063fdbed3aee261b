// GET /hardware/{id}/telemetry and the entity views: a node's latest sample, its series in a window
// (newest first, each row with its source) and its poll configuration (without the community).
import { and, desc, eq, gte, lte } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { computeUnits, hardwareLiveMetrics, services, telemetryConfigs } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { SERIES_LIMIT_DEFAULT, type TelemetryEntityType, type TelemetryQueryInput } from "../../schemas/telemetry.ts";
import { defineRead } from "../verb.ts";
import { type HardwareStatusRow, requireHardwareRow } from "./hardware-row.ts";
import { presentConfig, presentSample } from "./present.ts";

const READ_TELEMETRY = { scope: "read:telemetry" };
const HOUR_MS = 3_600_000;

async function telemetryOf(db: Db, node: HardwareStatusRow | null, query: TelemetryQueryInput, now: Date) {
  const until = query.until ?? null;
  const since = query.since ?? new Date((until ?? now).getTime() - (query.hours ?? 24) * HOUR_MS);
  const window = { since: since.toISOString(), until: until ? until.toISOString() : null };
  if (!node) return { hardware_id: null, hardware_name: null, hardware_status: null, ...window, latest: null, series: [], config: null };

  const byNode = eq(hardwareLiveMetrics.hardware_id, node.id);
  const newestFirst = [desc(hardwareLiveMetrics.ts), desc(hardwareLiveMetrics.id)];
  const [rows, [config]] = await Promise.all([
    db
      .select()
      .from(hardwareLiveMetrics)
      .where(and(byNode, gte(hardwareLiveMetrics.ts, since), until ? lte(hardwareLiveMetrics.ts, until) : undefined))
      .orderBy(...newestFirst)
      .limit(query.limit ?? SERIES_LIMIT_DEFAULT),
    db.select().from(telemetryConfigs).where(eq(telemetryConfigs.hardware_id, node.id)),
  ]);
  // Without an upper bound the series starts at the newest row there is; otherwise ask for it.
  const latest =
    !until && rows[0]
      ? rows[0]
      : (
          await db
            .select()
            .from(hardwareLiveMetrics)
            .where(byNode)
            .orderBy(...newestFirst)
            .limit(1)
        )[0];
  return {
    hardware_id: node.id,
    hardware_name: node.name,
    hardware_status: node.status,
    ...window,
    latest: latest ? presentSample(latest) : null,
    series: rows.map(presentSample),
    config: config ? presentConfig(config) : null,
  };
}

export const hardwareTelemetry = defineRead(
  READ_TELEMETRY,
  async (ctx, { hardwareId, query }: { hardwareId: number; query: TelemetryQueryInput }) => {
    const node = await requireHardwareRow(ctx.db, hardwareId);
    return telemetryOf(ctx.db, node, query, ctx.clock.now());
  },
);

/** The hardware an entity's telemetry comes from: its own, its host's, or where it runs; null for none. */
async function hardwareOfEntity(db: Db, type: TelemetryEntityType, id: number): Promise<number | null> {
  if (type === "hardware") return (await requireHardwareRow(db, id)).id;
  if (type === "compute_unit") {
    const [cu] = await db.select({ hw: computeUnits.hardware_id }).from(computeUnits).where(eq(computeUnits.id, id));
    if (!cu) throw ApiError.notFound("Compute unit", id);
    return cu.hw;
  }
  const [svc] = await db
    .select({ direct: services.hardware_id, viaUnit: computeUnits.hardware_id })
    .from(services)
    .leftJoin(computeUnits, eq(computeUnits.id, services.compute_id))
    .where(eq(services.id, id));
  if (!svc) throw ApiError.notFound("Service", id);
  return svc.direct ?? svc.viaUnit;
}

export const entityTelemetry = defineRead(
  READ_TELEMETRY,
  async (ctx, { entityType, entityId, query }: { entityType: TelemetryEntityType; entityId: number; query: TelemetryQueryInput }) => {
    const hardwareId = await hardwareOfEntity(ctx.db, entityType, entityId);
    const node = hardwareId == null ? null : await requireHardwareRow(ctx.db, hardwareId);
    return { entity_type: entityType, entity_id: entityId, ...(await telemetryOf(ctx.db, node, query, ctx.clock.now())) };
  },
);
