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
  const counts = `${plural(vms, "VM", "VMs")} and ${plural(services, "service", "services")} affected${rest}`;
  return { ...result, summary: `${LABEL[root.asset_type]} "${root.name}" ${stateClause(root.status)}${counts}.` };
}

/** States in which the asset is out now: what it would take down is already affected. */
const OUT = new Set(["down", "stopped", "failed", "offline"]);

/**
 * The summary names the asset as DOWN (spec 4.1), but only says it *is* down when its status says so: the
 * blast radius is asked of any asset, so one that is up, unknown or in maintenance gets the impact as a
 * what-if (docs/adr/0467).
 */
function stateClause(status: string | null): string {
  if (status === "down") return "is DOWN: ";
  if (status !== null && OUT.has(status)) return `is ${status}: `;
  const now = status === null ? "has no status" : status === "maintenance" ? "is in maintenance" : `is ${status}`;
  return `${now}; if it goes DOWN: `;
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
