// The flap window slid over 4, 5 and 6 transitions (spec 8.3: 30 minutes / 5 transitions).
import { describe, expect, it } from "vitest";
import {
  busiestWindow,
  countInWindow,
  FLAP_THRESHOLD,
  FLAP_WINDOW_MS,
  flapAction,
  transitionTimes,
} from "../../shared/domain/flap-window.ts";

const MIN = 60_000;
const at = (...minutes: number[]) => minutes.map((m) => m * MIN);

describe("busiestWindow", () => {
  it("4 transitions inside 30 minutes: below the threshold", () => {
    const w = busiestWindow(at(0, 5, 10, 15))!;
    expect(w).toEqual({ count: 4, first: 0, last: 15 * MIN });
    expect(w.count >= FLAP_THRESHOLD).toBe(false);
  });

  it("5 transitions: the window is closed at both ends (exactly 30 minutes apart counts)", () => {
    expect(busiestWindow(at(0, 10, 20, 25, 30))).toEqual({ count: 5, first: 0, last: 30 * MIN });
    // The fifth one second too late: no window holds five.
    expect(busiestWindow([...at(0, 10, 20, 25), 30 * MIN + 1000])!.count).toBe(4);
  });

  it("6 transitions sliding: the window follows the densest stretch", () => {
    // 0, 10, 20, 30, 40, 50: any 30-minute window holds 4.
    expect(busiestWindow(at(0, 10, 20, 30, 40, 50))!.count).toBe(4);
    // 0, 20, 25, 30, 35, 40: the window 10..40 holds 5, 0..30 holds 4.
    expect(busiestWindow(at(0, 20, 25, 30, 35, 40))).toEqual({ count: 5, first: 20 * MIN, last: 40 * MIN });
    // All six within 30 minutes.
    expect(busiestWindow(at(0, 5, 10, 15, 20, 25))).toEqual({ count: 6, first: 0, last: 25 * MIN });
  });

  it("equal instants count together; order of input does not matter; nothing -> null", () => {
    expect(busiestWindow(at(40, 10, 10, 40, 20))).toEqual({ count: 5, first: 10 * MIN, last: 40 * MIN });
    expect(busiestWindow([])).toBeNull();
  });
});

describe("countInWindow and transitionTimes", () => {
  it("counts the window ending now", () => {
    const now = 100 * MIN;
    expect(countInWindow(at(69, 70, 80, 90, 100, 101), now)).toBe(4);
    expect(countInWindow(at(70), now, FLAP_WINDOW_MS)).toBe(1);
  });

  it("transitions are status changes, case-insensitive, after the known status", () => {
    const obs = [
      { at: 1, status: "up" },
      { at: 2, status: "UP" },
      { at: 3, status: "down" },
      { at: 4, status: "down" },
      { at: 5, status: "up" },
    ];
    expect(transitionTimes(obs)).toEqual([3, 5]);
    expect(transitionTimes(obs, "down")).toEqual([1, 3, 5]);
  });
});

describe("flapAction", () => {
  it("opens, updates, resolves", () => {
    expect(flapAction({ active: false, busiest: 4, latest: 4 })).toBe("none");
    expect(flapAction({ active: false, busiest: 5, latest: 5 })).toBe("open");
    expect(flapAction({ active: false, busiest: 6, latest: 1 })).toBe("open_resolved");
    expect(flapAction({ active: true, busiest: 6, latest: 5 })).toBe("update");
    expect(flapAction({ active: true, busiest: 9, latest: 4 })).toBe("resolve");
  });
});
