// [intelligence] spec 4.1: bare arrays and objects exactly as the spec names them.
import type { Hono } from "hono";
import * as v from "valibot";
import { ASSET_TYPES } from "../../../shared/domain/blast-radius.ts";
import { BlastRadiusParams } from "../../../shared/schemas/intelligence.ts";
import { getBlastRadius, listCapacityForecasts, listRecommendations } from "../../../shared/verbs/intelligence/read.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const Item = v.object({ asset_type: v.picklist(ASSET_TYPES), asset_id: v.number(), name: v.string(), status: v.nullable(v.string()) });
const BlastRadius = v.object({
  root_asset: Item,
  impacted_hardware: v.array(Item),
  impacted_compute_units: v.array(Item),
  impacted_services: v.array(Item),
  impacted_storage: v.array(Item),
  total_impact_count: v.number(),
  hidden_impact_count: v.pipe(v.number(), v.description("Impacted assets not listed because the caller lacks the read scope of their kind (counted in total_impact_count).")),
  summary: v.string(),
});
const Forecast = v.object({
  id: v.number(), hardware_id: v.number(), metric: v.string(), slope_per_day: v.number(), current_value: v.number(),
  projected_full_at: v.nullable(v.string()), warning_threshold_days: v.number(), evaluated_at: v.string(),
});
const Recommendation = v.object({
  id: v.number(), asset_type: v.string(), asset_id: v.number(), classification: v.picklist(["under_provisioned", "over_provisioned", "balanced"]),
  cpu_avg_pct: v.number(), cpu_peak_pct: v.number(), mem_avg_pct: v.number(), recommendation: v.string(), evaluated_at: v.string(),
});

export function intelligenceRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/intel/blast-radius/:asset_type/:asset_id", tag: "intelligence",
      summary: "What breaks if this asset goes down: a breadth-first walk over the six dependency edge kinds",
      description: "Edges: hardware connections, hardware sharing a network (both ways), compute units on hardware, services on hardware or compute units, service dependencies (A depends on B: B down impacts A), storage on hardware. The root is not counted. Needs the read scope of the root's kind (read:hardware, read:compute, read:services, read:storage); impacted assets of a kind the caller cannot read are left out of the lists and counted in hidden_impact_count.",
      params: BlastRadiusParams,
      response: { schema: BlastRadius },
    },
    async (c, { params, reply }) => reply(await getBlastRadius({ ctx: verbContext(c), input: { type: params.asset_type, id: params.asset_id } })),
  );

  route(
    app,
    {
      method: "get", path: "/api/v1/intel/capacity-forecasts", tag: "intelligence", scope: listCapacityForecasts.scope,
      summary: "Disk and memory saturation forecasts, soonest first (no projection last)",
      response: { schema: v.array(Forecast) },
    },
    async (c, { reply }) => reply(await listCapacityForecasts({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get", path: "/api/v1/intel/resource-efficiency", tag: "intelligence", scope: listRecommendations.scope,
      summary: "Right-sizing recommendations, most recent first",
      response: { schema: v.array(Recommendation) },
    },
    async (c, { reply }) => reply(await listRecommendations({ ctx: verbContext(c) })),
  );
}
