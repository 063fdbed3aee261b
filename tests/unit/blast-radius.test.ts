import { describe, expect, it } from "vitest";
import { type BlastItem, blastRadius, blastRadiusSummary } from "../../shared/domain/blast-radius.ts";

const item = (asset_type: BlastItem["asset_type"], asset_id: number, name = `${asset_type}-${asset_id}`): BlastItem => ({
  asset_type,
  asset_id,
  name,
  status: null,
});

describe("blast radius summary", () => {
  it("names the asset as DOWN and counts VMs and services", () => {
    const b = blastRadius(item("hardware", 1, "pve-01"), [
      item("compute_unit", 3),
      item("compute_unit", 2),
      item("service", 9),
      item("storage", 4),
    ]);
    expect(b.summary).toBe('Hardware node "pve-01" is DOWN: 2 VMs and 1 service affected, plus 1 other asset.');
    expect(b.total_impact_count).toBe(4);
    expect(b.impacted_compute_units.map((i) => i.asset_id)).toEqual([2, 3]);
    expect(blastRadiusSummary(b)).toEqual({
      summary: b.summary,
      total_impact_count: 4,
      impacted_compute_units: 2,
      impacted_services: 1,
      impacted_hardware: 0,
    });
  });

  it("an asset nothing depends on is a valid, empty answer", () => {
    const b = blastRadius(item("service", 5, "lonely"), []);
    expect(b).toMatchObject({
      impacted_hardware: [],
      impacted_compute_units: [],
      impacted_services: [],
      impacted_storage: [],
      total_impact_count: 0,
    });
    expect(b.summary).toBe('Service "lonely" is DOWN: 0 VMs and 0 services affected.');
  });
});
