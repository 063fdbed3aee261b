// Where a rack's units are drawn and which unit a drag lands on (docs/adr/0490-rack-elevation-moves.md).
// Pure: the elevation screen (rack-elevation.tsx) draws with it, tests/unit/rack-geometry.test.ts checks it.
// Units are drawn top of the rack first: `bottom_up` puts unit 1 at the bottom, `top_down` at the top.

export type Numbering = "bottom_up" | "top_down";

export interface RackShape {
  u_height: number;
  numbering: Numbering;
}

/** The row (0 = the top of the drawing) unit `unit` is drawn on. */
export function rowOf(rack: RackShape, unit: number): number {
  return rack.numbering === "bottom_up" ? rack.u_height - unit : unit - 1;
}

/** The top row and the number of rows of a block of `height` units starting at unit `first`. */
export function blockRows(rack: RackShape, first: number, height: number): { top: number; rows: number } {
  const rows = Math.max(1, height);
  const last = first + rows - 1;
  return { top: Math.min(rowOf(rack, first), rowOf(rack, last)), rows };
}

/**
 * The first unit a block starting at `first` lands on when dragged `rowsDown` rows down the drawing
 * (negative: up). Only the rows count, so the block keeps its grab point; the API refuses a unit past the
 * rack or taken, so nothing is clamped here but unit 1.
 */
export function unitAfterDrag(rack: RackShape, first: number, rowsDown: number): number {
  const unit = rack.numbering === "bottom_up" ? first - rowsDown : first + rowsDown;
  return Math.max(1, unit);
}

/** The first unit after a keyboard step: ArrowUp moves the block up the drawing, ArrowDown down. */
export function unitAfterKey(rack: RackShape, first: number, key: "ArrowUp" | "ArrowDown"): number {
  return unitAfterDrag(rack, first, key === "ArrowUp" ? -1 : 1);
}

/** The whole rows a pointer moved by `dy` drawing units crosses, rows `rowHeight` tall (half a row rounds). */
export function rowsMoved(dy: number, rowHeight: number): number {
  return Math.round(dy / rowHeight);
}
