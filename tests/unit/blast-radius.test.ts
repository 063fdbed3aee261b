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
    const b = blastRadius({ ...item("hardware", 1, "pve-01"), status: "down" }, [
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
    expect(b.summary).toBe('Service "lonely" has no status; if it goes DOWN: 0 VMs and 0 services affected.');
  });

  it("says the asset's actual state: the impact is a what-if unless it is out", () => {
    const summary = (status: string | null) => blastRadius({ ...item("hardware", 1, "sw-1"), status }, [item("compute_unit", 2)]).summary;
    expect(summary("unknown")).toBe('Hardware node "sw-1" is unknown; if it goes DOWN: 1 VM and 0 services affected.');
    expect(summary("up")).toBe('Hardware node "sw-1" is up; if it goes DOWN: 1 VM and 0 services affected.');
    expect(summary("maintenance")).toBe('Hardware node "sw-1" is in maintenance; if it goes DOWN: 1 VM and 0 services affected.');
    expect(summary("down")).toBe('Hardware node "sw-1" is DOWN: 1 VM and 0 services affected.');
    expect(blastRadius({ ...item("compute_unit", 3, "vm-3"), status: "stopped" }, []).summary).toBe(
      'Compute unit "vm-3" is stopped: 0 VMs and 0 services affected.',
    );
  });
});
