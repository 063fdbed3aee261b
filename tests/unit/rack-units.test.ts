// The rules of units in a rack (shared/domain/racks/rack-units.ts, ADR 0480): faces, overlaps, the
// drawing order of both numberings, utilisation and the elevation's units.
import { describe, expect, it } from "vitest";
import {
  drawingOrder,
  elevationUnits,
  faceOf,
  facesMeet,
  heightOf,
  occupantAt,
  type PlacedNode,
  rangesMeet,
  takenText,
  unitsText,
  utilisationOf,
} from "../../shared/domain/racks/rack-units.ts";

const node = (id: number, first_unit: number, u_height: number, face: PlacedNode["face"] = "front"): PlacedNode => ({
  id,
  name: `n${id}`,
  first_unit,
  u_height,
  face,
});

describe("faces and ranges", () => {
  it("both meets every face; front and rear do not meet", () => {
    expect(facesMeet("front", "front")).toBe(true);
    expect(facesMeet("front", "rear")).toBe(false);
    expect(facesMeet("rear", "both")).toBe(true);
    expect(facesMeet("both", "front")).toBe(true);
  });
  it("ranges meet when they share a unit, not when they touch", () => {
    expect(rangesMeet(10, 2, 11, 1)).toBe(true);
    expect(rangesMeet(10, 2, 12, 1)).toBe(false);
    expect(rangesMeet(12, 1, 10, 2)).toBe(false);
    expect(rangesMeet(5, 10, 7, 1)).toBe(true);
  });
  it("a node without a height is 1 U, without a face on the front", () => {
    expect(heightOf(null)).toBe(1);
    expect(heightOf(0)).toBe(0);
    expect(faceOf(null)).toBe("front");
    expect(faceOf("rear")).toBe("rear");
  });
  it("names one unit or a span", () => {
    expect(unitsText(7, 1)).toBe("unit 7");
    expect(unitsText(10, 2)).toBe("units 10-11");
  });
});

describe("occupantAt", () => {
  const nodes = [node(1, 10, 2), node(2, 20, 1, "both")];
  const reservations = [{ id: 9, first_unit: 30, u_count: 2, reason: "UPS" }];
  it("finds the node on the same face, a full-depth node on any face, a reservation on any face", () => {
    expect(occupantAt(11, 1, "front", nodes, reservations)).toEqual({ kind: "hardware", node: nodes[0] });
    expect(occupantAt(11, 1, "rear", nodes, reservations)).toBeUndefined();
    expect(occupantAt(19, 2, "rear", nodes, reservations)).toEqual({ kind: "hardware", node: nodes[1] });
    expect(occupantAt(31, 1, "rear", nodes, reservations)).toEqual({ kind: "reservation", reservation: reservations[0] });
    expect(occupantAt(12, 8, "both", nodes, reservations)).toBeUndefined();
  });
  it("says who has the units", () => {
    expect(takenText(11, 2, "front", { kind: "hardware", node: nodes[0]! })).toBe(
      "units 11-12 on the front cannot be used: units 10-11 are taken by hardware 'n1' (id 1), mounted on the front.",
    );
    expect(takenText(20, 1, "rear", { kind: "hardware", node: nodes[1]! })).toBe(
      "unit 20 on the rear cannot be used: unit 20 is taken by hardware 'n2' (id 2), mounted full depth.",
    );
    expect(takenText(30, 1, "both", { kind: "reservation", reservation: reservations[0]! })).toBe(
      "unit 30 on both faces cannot be used: units 30-31 are reserved (reservation 9: UPS).",
    );
  });
});

describe("drawing order and elevation", () => {
  it("bottom-up racks are drawn from their highest unit, top-down from unit 1", () => {
    expect(drawingOrder(4, "bottom_up")).toEqual([4, 3, 2, 1]);
    expect(drawingOrder(4, "top_down")).toEqual([1, 2, 3, 4]);
  });
  it("puts each node on its faces and a reservation on both", () => {
    const units = elevationUnits(
      4,
      "bottom_up",
      [node(1, 1, 2, "both"), node(2, 3, 1, "rear")],
      [{ id: 5, first_unit: 4, u_count: 1, reason: "x" }],
    );
    expect(units.map((u) => [u.unit, u.front?.id ?? null, u.rear?.id ?? null])).toEqual([
      [4, 5, 5],
      [3, null, 2],
      [2, 1, 1],
      [1, 1, 1],
    ]);
  });
});

describe("utilisationOf", () => {
  it("counts a unit used once whatever its faces, reserved only when not used, the rest free", () => {
    const u = utilisationOf(10, [node(1, 1, 2, "front"), node(2, 2, 1, "rear")], [{ id: 1, first_unit: 2, u_count: 3, reason: "x" }]);
    expect(u).toEqual({ used_u: 2, reserved_u: 2, free_u: 6, percent: 20 });
  });
  it("rounds the percentage to one decimal and ignores units past the top", () => {
    expect(utilisationOf(42, [node(1, 1, 1)], []).percent).toBe(2.4);
    expect(utilisationOf(4, [node(1, 4, 3)], []).used_u).toBe(1);
  });
});
