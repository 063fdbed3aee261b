// The intelligence endpoints of spec 4.1, each behind the read scopes of what it answers (docs/adr/0321):
// forecasts and right-sizing are about hardware (read:hardware); a blast radius needs the read scope of
// its root's kind and lists only the impacted kinds the caller may read, counting the rest.
import { asc, desc, sql } from "drizzle-orm";
import { capacityForecasts, resourceRecommendations } from "../../db/schema/index.ts";
import type { AssetType, BlastRadius } from "../../domain/blast-radius.ts";
import { actorCan } from "../actor.ts";
import { computeUnitVerbs } from "../inventory/compute-units/def.ts";
import { hardwareVerbs } from "../inventory/hardware/def.ts";
import { serviceVerbs } from "../inventory/services/def.ts";
import { storageVerbs } from "../inventory/storage/def.ts";
import type { VerbContext } from "../verb-context.ts";
import { defineRead, requireScope } from "../verb.ts";
import { computeBlastRadius } from "./blast-radius.ts";

/** The scope that reads each kind a blast radius can name: the same as the kind's own GET routes. */
export const READ_SCOPE: Readonly<Record<AssetType, string>> = {
  hardware: hardwareVerbs.scopes.read,
  compute_unit: computeUnitVerbs.scopes.read,
  service: serviceVerbs.scopes.read,
  storage: storageVerbs.scopes.read,
};

type BlastInput = { type: AssetType; id: number };

/**
 * Drops the impacted assets of kinds the caller may not read. The total and the summary stay those of
 * the whole walk (counts, never names), and hidden_impact_count says how many are not listed.
 */
function visibleTo(ctx: VerbContext, b: BlastRadius): BlastRadius & { hidden_impact_count: number } {
  const may = (kind: AssetType) => ctx.actor != null && actorCan(ctx.actor, READ_SCOPE[kind]);
  const shown = {
    impacted_hardware: may("hardware") ? b.impacted_hardware : [],
    impacted_compute_units: may("compute_unit") ? b.impacted_compute_units : [],
    impacted_services: may("service") ? b.impacted_services : [],
    impacted_storage: may("storage") ? b.impacted_storage : [],
  };
  const listed = Object.values(shown).reduce((n, items) => n + items.length, 0);
  return { ...b, ...shown, hidden_impact_count: b.total_impact_count - listed };
}

export const getBlastRadius = defineRead(
  { scope: (ctx, input: BlastInput) => requireScope(ctx, READ_SCOPE[input.type]) },
  async (ctx, { type, id }: BlastInput) => visibleTo(ctx, await computeBlastRadius(ctx.db, type, id)),
);

/** Ordered by projected_full_at ascending, nulls last (spec 4.1). */
export const listCapacityForecasts = defineRead({ scope: READ_SCOPE.hardware }, async (ctx) => {
  const rows = await ctx.db
    .select()
    .from(capacityForecasts)
    .orderBy(sql`${capacityForecasts.projected_full_at} asc nulls last`, asc(capacityForecasts.hardware_id), asc(capacityForecasts.metric));
  return rows.map((r) => ({
    ...r,
    projected_full_at: r.projected_full_at?.toISOString() ?? null,
    evaluated_at: r.evaluated_at.toISOString(),
  }));
});

/** Most recent first (spec 4.1). Every recommendation is about a hardware node (analytics/right-sizing.ts). */
export const listRecommendations = defineRead({ scope: READ_SCOPE.hardware }, async (ctx) => {
  const rows = await ctx.db
    .select()
    .from(resourceRecommendations)
    .orderBy(desc(resourceRecommendations.evaluated_at), asc(resourceRecommendations.id));
  return rows.map((r) => ({ ...r, evaluated_at: r.evaluated_at.toISOString() }));
});
