// The intelligence endpoints of spec 4.1: any signed-in user may read them (no scope).
import { asc, desc, sql } from "drizzle-orm";
import { capacityForecasts, resourceRecommendations } from "../../db/schema/index.ts";
import type { AssetType } from "../../domain/blast-radius.ts";
import { ApiError } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";
import { computeBlastRadius } from "./blast-radius.ts";

function signedIn(ctx: VerbContext): void {
  if (!ctx.actor) throw ApiError.unauthorized("Authentication required.");
}

export async function getBlastRadius({ ctx, type, id }: { ctx: VerbContext; type: AssetType; id: number }) {
  signedIn(ctx);
  return computeBlastRadius(ctx.db, type, id);
}

/** Ordered by projected_full_at ascending, nulls last (spec 4.1). */
export async function listCapacityForecasts({ ctx }: { ctx: VerbContext }) {
  signedIn(ctx);
  const rows = await ctx.db
    .select()
    .from(capacityForecasts)
    .orderBy(sql`${capacityForecasts.projected_full_at} asc nulls last`, asc(capacityForecasts.hardware_id), asc(capacityForecasts.metric));
  return rows.map((r) => ({ ...r, projected_full_at: r.projected_full_at?.toISOString() ?? null, evaluated_at: r.evaluated_at.toISOString() }));
}

/** Most recent first (spec 4.1). */
export async function listRecommendations({ ctx }: { ctx: VerbContext }) {
  signedIn(ctx);
  const rows = await ctx.db.select().from(resourceRecommendations).orderBy(desc(resourceRecommendations.evaluated_at), asc(resourceRecommendations.id));
  return rows.map((r) => ({ ...r, evaluated_at: r.evaluated_at.toISOString() }));
}
