// [intelligence] request and response shapes of /intel/* (spec 4.1): the path of GET
// /intel/blast-radius/{asset_type}/{asset_id} (the root asset's kind and id), the blast radius, and the
// bare arrays of capacity forecasts and right-sizing recommendations exactly as the spec names them.
import * as v from "valibot";
import { ASSET_TYPES } from "../domain/blast-radius.ts";

export const BlastRadiusParams = v.object({
  asset_type: v.picklist(ASSET_TYPES, `asset_type is one of: ${ASSET_TYPES.join(", ")}.`),
  asset_id: v.pipe(v.string(), v.regex(/^\d{1,10}$/, "Must be a positive integer id."), v.transform(Number)),
});

/** One asset of a blast radius: the root or an impacted one. */
export const ImpactedAsset = v.object({
  asset_type: v.picklist(ASSET_TYPES),
  asset_id: v.number(),
  name: v.string(),
  status: v.nullable(v.string()),
});
export const BlastRadius = v.object({
  root_asset: ImpactedAsset,
  impacted_hardware: v.array(ImpactedAsset),
  impacted_compute_units: v.array(ImpactedAsset),
  impacted_services: v.array(ImpactedAsset),
  impacted_storage: v.array(ImpactedAsset),
  total_impact_count: v.number(),
  hidden_impact_count: v.pipe(
    v.number(),
    v.description("Impacted assets not listed because the caller lacks the read scope of their kind (counted in total_impact_count)."),
  ),
  summary: v.string(),
});
export const CapacityForecast = v.object({
  id: v.number(),
  hardware_id: v.number(),
  metric: v.string(),
  slope_per_day: v.number(),
  current_value: v.number(),
  projected_full_at: v.nullable(v.string()),
  warning_threshold_days: v.number(),
  evaluated_at: v.string(),
});
export const CapacityForecasts = v.array(CapacityForecast);
export const Recommendation = v.object({
  id: v.number(),
  asset_type: v.string(),
  asset_id: v.number(),
  classification: v.picklist(["under_provisioned", "over_provisioned", "balanced"]),
  cpu_avg_pct: v.number(),
  cpu_peak_pct: v.number(),
  mem_avg_pct: v.number(),
  recommendation: v.string(),
  evaluated_at: v.string(),
});
export const Recommendations = v.array(Recommendation);
