// Where the rack elevation draws units and where a drag or an arrow key lands (web/src/inventory/rack-geometry.ts).
import { describe, expect, it } from "vitest";
import { blockRows, rowOf, rowsMoved, unitAfterDrag, unitAfterKey } from "../../web/src/inventory/rack-geometry.ts";

const bottomUp = { u_height: 42, numbering: "bottom_up" as const };
const topDown = { u_height: 42, numbering: "top_down" as const };

describe("rack geometry", () => {
  it("draws unit 1 at the bottom for bottom-up numbering and at the top for top-down", () => {
    expect(rowOf(bottomUp, 42)).toBe(0);
    expect(rowOf(bottomUp, 1)).toBe(41);
    expect(rowOf(topDown, 1)).toBe(0);
    expect(rowOf(topDown, 42)).toBe(41);
  });

  it("draws a block from its top row: its last unit bottom-up, its first unit top-down", () => {
    // A 2 U node at unit 10 takes units 10-11.
    expect(blockRows(bottomUp, 10, 2)).toEqual({ top: 31, rows: 2 });
    expect(blockRows(topDown, 10, 2)).toEqual({ top: 9, rows: 2 });
    // A node without a height is 1 U.
    expect(blockRows(bottomUp, 5, 0)).toEqual({ top: 37, rows: 1 });
  });

  it("maps rows dragged down the drawing to units down the rack, whatever the numbering", () => {
    expect(unitAfterDrag(bottomUp, 10, 5)).toBe(5);
    expect(unitAfterDrag(bottomUp, 10, -3)).toBe(13);
    expect(unitAfterDrag(topDown, 10, 5)).toBe(15);
    expect(unitAfterDrag(topDown, 10, -3)).toBe(7);
    // Never below unit 1; past the top is left to the API's 409.
    expect(unitAfterDrag(bottomUp, 2, 5)).toBe(1);
    expect(unitAfterDrag(bottomUp, 40, -10)).toBe(50);
  });

  it("moves one unit up or down the drawing per arrow key", () => {
    expect(unitAfterKey(bottomUp, 20, "ArrowUp")).toBe(21);
    expect(unitAfterKey(bottomUp, 20, "ArrowDown")).toBe(19);
    expect(unitAfterKey(topDown, 20, "ArrowUp")).toBe(19);
    expect(unitAfterKey(topDown, 20, "ArrowDown")).toBe(21);
  });

  it("counts a row once the pointer is half-way into it", () => {
    expect(rowsMoved(10, 22)).toBe(0);
    expect(rowsMoved(11, 22)).toBe(1);
    expect(rowsMoved(-33, 22)).toBe(-1);
    expect(rowsMoved(110, 22)).toBe(5);
  });
});
