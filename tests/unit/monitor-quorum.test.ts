// The quorum judgement of multi-vantage monitors (shared/domain/monitors/quorum.ts, docs/adr/0441): which
// points count, the verdicts, and what each does to the monitor's state.
import { describe, expect, it } from "vitest";
import {
  decideQuorum,
  effectiveQuorum,
  freshnessMs,
  judge,
  majority,
  type VantagePointResult,
  vantagePoints,
} from "../../shared/domain/monitors/quorum.ts";
import type { MonitorState } from "../../shared/domain/monitors/state.ts";

const now = new Date("2026-11-02T10:00:00Z");
const ago = (s: number) => new Date(now.getTime() - s * 1000);
const three = { vantage_agent_ids: [7, 9], vantage_sidecar: true, quorum: null };
const last = (...points: [string, boolean, number][]) =>
  new Map<string, VantagePointResult>(points.map(([vantage, up, s]) => [vantage, { vantage, up, checked_at: ago(s) }]));
const WINDOW = freshnessMs(60, 1000);
const state = (over: Partial<MonitorState> = {}): MonitorState => ({
  status: "up",
  retries: 0,
  max_retries: 3,
  interval_secs: 60,
  retry_interval_secs: null,
  last_status_change_at: ago(600),
  ...over,
});

describe("the points and the quorum", () => {
  it("names the sidecar when it takes part and each agent; Q defaults to a majority", () => {
    expect(vantagePoints(three)).toEqual(["sidecar", "7", "9"]);
    expect(vantagePoints({ ...three, vantage_sidecar: false })).toEqual(["7", "9"]);
    expect([1, 2, 3, 4, 5].map(majority)).toEqual([1, 2, 2, 3, 3]);
    expect(effectiveQuorum(three)).toBe(2);
    expect(effectiveQuorum({ ...three, quorum: 3 })).toBe(3);
    expect(WINDOW).toBe(66_000);
  });
});

describe("judge", () => {
  it("down at Q fresh downs, degraded below, up with none down and Q fresh answers, else no verdict", () => {
    expect(judge(three, last(["sidecar", true, 1], ["7", false, 2], ["9", false, 3]), now, WINDOW)).toEqual({
      verdict: "down",
      down: 2,
      fresh: 3,
      points: 3,
      quorum: 2,
    });
    expect(judge(three, last(["sidecar", true, 1], ["7", false, 2], ["9", true, 3]), now, WINDOW).verdict).toBe("degraded");
    expect(judge(three, last(["sidecar", true, 1], ["7", true, 2]), now, WINDOW).verdict).toBe("up");
    expect(judge(three, last(["sidecar", true, 1]), now, WINDOW).verdict).toBe("none");
    expect(judge(three, last(), now, WINDOW).verdict).toBe("none");
  });

  it("counts a point only within the window, and never one the monitor does not name", () => {
    // 66 s is still fresh, 67 s is not.
    expect(judge(three, last(["7", false, 66], ["9", false, 0]), now, WINDOW).verdict).toBe("down");
    expect(judge(three, last(["7", false, 67], ["9", false, 0]), now, WINDOW)).toMatchObject({ verdict: "degraded", fresh: 1 });
    expect(judge(three, last(["8", false, 0], ["9", false, 0]), now, WINDOW)).toMatchObject({ verdict: "degraded", down: 1 });
  });
});

describe("decideQuorum", () => {
  const j = (verdict: "up" | "degraded" | "down" | "none") => ({ verdict, down: 0, fresh: 0, points: 3, quorum: 2 });

  it("degraded from up is an event and a warning alert; staying degraded is silent", () => {
    expect(decideQuorum(state(), j("degraded"), "1 of 3", now, false)).toMatchObject({
      status: "degraded",
      alert: "degraded",
      event: { event_type: "degraded", status_from: "up", status_to: "degraded", duration_secs: 600 },
    });
    expect(decideQuorum(state({ status: "degraded" }), j("degraded"), "1 of 3", now, false)).toMatchObject({ event: null, alert: null });
  });

  it("a down verdict is down at once, whatever max_retries; leaving degraded or down for up alerts the recovery", () => {
    expect(decideQuorum(state(), j("down"), "2 of 3", now, false)).toMatchObject({ status: "down", alert: "down" });
    expect(decideQuorum(state({ status: "down" }), j("down"), "2 of 3", now, false)).toMatchObject({ status: "down", event: null });
    expect(decideQuorum(state({ status: "degraded" }), j("up"), "0 of 3", now, false)).toMatchObject({ status: "up", alert: "up" });
    expect(decideQuorum(state({ status: "down" }), j("up"), "0 of 3", now, false)).toMatchObject({ status: "up", alert: "up" });
    expect(decideQuorum(state({ status: "pending" }), j("up"), "0 of 3", now, false)).toMatchObject({ status: "up", alert: null });
  });

  it("no verdict keeps the status; a maintenance window wins over any verdict", () => {
    expect(decideQuorum(state({ status: "pending", retries: 1 }), j("none"), "", now, false)).toEqual({
      status: "pending",
      retries: 1,
      event: null,
      alert: null,
      next_check_secs: 60,
    });
    expect(decideQuorum(state(), j("down"), "2 of 3", now, true)).toMatchObject({ status: "maintenance", alert: null });
  });
});
