// The intelligence endpoints of spec 4.1: any signed-in user may read them (no scope).
import { asc, desc, sql } from "drizzle-orm";
import { capacityForecasts, resourceRecommendations } from "../../db/schema/index.ts";
import type { AssetType } from "../../domain/blast-radius.ts";
import { requireSignedIn } from "../system/signed-in.ts";
import { defineRead } from "../verb.ts";
import { computeBlastRadius } from "./blast-radius.ts";

const SIGNED_IN = { scope: requireSignedIn };

export const getBlastRadius = defineRead(SIGNED_IN, async (ctx, { type, id }: { type: AssetType; id: number }) => computeBlastRadius(ctx.db, type, id));

/** Ordered by projected_full_at ascending, nulls last (spec 4.1). */
export const listCapacityForecasts = defineRead(SIGNED_IN, async (ctx) => {
  const rows = await ctx.db
    .select()
    .from(capacityForecasts)
    .orderBy(sql`${capacityForecasts.projected_full_at} asc nulls last`, asc(capacityForecasts.hardware_id), asc(capacityForecasts.metric));
  return rows.map((r) => ({ ...r, projected_full_at: r.projected_full_at?.toISOString() ?? null, evaluated_at: r.evaluated_at.toISOString() }));
});

/** Most recent first (spec 4.1). */
export const listRecommendations = defineRead(SIGNED_IN, async (ctx) => {
  const rows = await ctx.db.select().from(resourceRecommendations).orderBy(desc(resourceRecommendations.evaluated_at), asc(resourceRecommendations.id));
  return rows.map((r) => ({ ...r, evaluated_at: r.evaluated_at.toISOString() }));
});
