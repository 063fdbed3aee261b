// Right-sizing rules (spec 3.3), applied by the analytics job to 30-day averages per asset.
//   1. under_provisioned when CPU average > 75 %, or CPU average > 60 % and CPU peak > 90 %;
//   2. over_provisioned when CPU average < 10 % and memory average < 15 %;
//   3. balanced otherwise (no recommendation: the asset gets no row).

export const RIGHT_SIZING_WINDOW_DAYS = 30;
export const CLASSIFICATIONS = ["under_provisioned", "over_provisioned", "balanced"] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

export interface Usage {
  cpu_avg_pct: number;
  cpu_peak_pct: number;
  mem_avg_pct: number;
}

export function classify(u: Usage): Classification {
  if (u.cpu_avg_pct > 75 || (u.cpu_avg_pct > 60 && u.cpu_peak_pct > 90)) return "under_provisioned";
  if (u.cpu_avg_pct < 10 && u.mem_avg_pct < 15) return "over_provisioned";
  return "balanced";
}

/** A percentage as people write it: at most one decimal, no trailing ".0". */
export function pct(value: number): string {
  return `${Math.round(value * 10) / 10}%`;
}

/** The human sentence of a recommendation, with its numbers; null for a balanced asset. */
export function recommendationText(u: Usage, what = "node"): string | null {
  switch (classify(u)) {
    case "under_provisioned":
      return u.cpu_avg_pct > 75
        ? `CPU averages ${pct(u.cpu_avg_pct)} (peak ${pct(u.cpu_peak_pct)}): add CPU or move workloads off this ${what}.`
        : `CPU averages ${pct(u.cpu_avg_pct)} with peaks of ${pct(u.cpu_peak_pct)}: add CPU headroom or move bursty workloads off this ${what}.`;
    case "over_provisioned":
      return `CPU averages ${pct(u.cpu_avg_pct)} (peak ${pct(u.cpu_peak_pct)}) and memory ${pct(u.mem_avg_pct)}: this ${what} is oversized; consolidate workloads onto it or reclaim its capacity.`;
    default:
      return null;
  }
}
