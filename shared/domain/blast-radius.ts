// The pure half of blast radius (spec 4.1, 2.4, 6.5): grouping the impacted assets and the sentences
// and counts that describe them. The traversal itself runs in PostgreSQL
// (shared/verbs/intelligence/blast-radius.ts).

export const ASSET_TYPES = ["hardware", "compute_unit", "service", "storage"] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

export interface BlastItem {
  asset_type: AssetType;
  asset_id: number;
  name: string;
  status: string | null;
}

export interface BlastRadius {
  root_asset: BlastItem;
  impacted_hardware: BlastItem[];
  impacted_compute_units: BlastItem[];
  impacted_services: BlastItem[];
  impacted_storage: BlastItem[];
  total_impact_count: number;
  summary: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const LABEL: Record<AssetType, string> = {
  hardware: "Hardware node",
  compute_unit: "Compute unit",
  service: "Service",
  storage: "Storage",
};

/** Builds the answer from the root and everything the traversal reached (root excluded by the caller). */
export function blastRadius(root: BlastItem, impacted: BlastItem[]): BlastRadius {
  const of = (t: AssetType) => impacted.filter((i) => i.asset_type === t).sort((a, b) => a.asset_id - b.asset_id);
  const result = {
    root_asset: root,
    impacted_hardware: of("hardware"),
    impacted_compute_units: of("compute_unit"),
    impacted_services: of("service"),
    impacted_storage: of("storage"),
    total_impact_count: impacted.length,
  };
  const vms = result.impacted_compute_units.length;
  const services = result.impacted_services.length;
  const others = impacted.length - vms - services;
  const rest = others > 0 ? `, plus ${plural(others, "other asset", "other assets")}` : "";
  const summary = `${LABEL[root.asset_type]} "${root.name}" is DOWN: ${plural(vms, "VM", "VMs")} and ${plural(services, "service", "services")} affected${rest}.`;
  return { ...result, summary };
}

/** The status-history form of a blast radius (spec 6.5): the summary and the counts. */
export function blastRadiusSummary(b: BlastRadius) {
  return {
    summary: b.summary,
    total_impact_count: b.total_impact_count,
    impacted_compute_units: b.impacted_compute_units.length,
    impacted_services: b.impacted_services.length,
    impacted_hardware: b.impacted_hardware.length,
  };
}
