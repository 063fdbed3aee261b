// judgeGroup and decideGroup (docs/adr/0440): a group's verdict from its members' tallies, and what the
// verdict does to the group's state, without retries, undecided keeping a down group down.
import { describe, expect, it } from "vitest";
import { decideGroup, judgeGroup, type MemberTally, type Standing } from "../../shared/domain/monitors/group.ts";
import type { MonitorState } from "../../shared/domain/monitors/state.ts";

const now = new Date("2026-11-29T10:00:00Z");
const state = (status: MonitorState["status"], max_retries = 3): MonitorState => ({
  status,
  retries: 0,
  max_retries,
  interval_secs: 60,
  retry_interval_secs: null,
  last_status_change_at: null,
});
let id = 0;
const tally = (standing: Standing, ...names: string[]): MemberTally => ({
  standing,
  n: names.length,
  first: names.slice(0, 5).map((name) => ({ id: ++id, name })),
});

describe("judgeGroup", () => {
  it("all, any and at_least against the same members", () => {
    const members = [tally("up", "a", "b"), tally("down", "c"), tally("pending", "d")];
    expect(judgeGroup({}, members).verdict).toBe("down");
    expect(judgeGroup({ mode: "any" }, members).verdict).toBe("up");
    expect(judgeGroup({ mode: "at_least", min_up: 2 }, members).verdict).toBe("up");
    // 2 up and 1 pending could still make 3: not decided yet; 4 cannot be reached.
    expect(judgeGroup({ mode: "at_least", min_up: 3 }, members).verdict).toBe("pending");
    expect(judgeGroup({ mode: "at_least", min_up: 4 }, members)).toMatchObject({
      verdict: "down",
      msg: "down: 2 of 4 up, need 4: c down",
    });
  });

  it("pending with no counted member; paused and in-maintenance members are named apart", () => {
    expect(judgeGroup({}, [])).toMatchObject({ verdict: "pending", msg: "pending: no member counts" });
    expect(judgeGroup({ mode: "any" }, [tally("paused", "p"), tally("maintenance", "m1", "m2")])).toMatchObject({
      verdict: "pending",
      msg: "pending: no member counts (not counted: 1 paused, 2 in maintenance)",
    });
  });

  it("names five deciding members, then counts the rest", () => {
    const down = tally("down", "d1", "d2", "d3", "d4", "d5", "d6", "d7");
    const j = judgeGroup({}, [down, tally("up", "u")]);
    expect(j.msg).toBe("down: 1 of 8 up, need 8: d1 down, d2 down, d3 down, d4 down, d5 down, and 2 more down");
    expect(j.detail).toMatchObject({ mode: "all", need: 8, counts: { up: 1, down: 7 } });
  });
});

describe("decideGroup", () => {
  it("goes down at once whatever max_retries says, and up again with a recovery alert", () => {
    const down = decideGroup(state("up", 5), "down", "down: c down", now, false);
    expect(down).toMatchObject({ status: "down", retries: 0, alert: "down", event: { status_from: "up", status_to: "down" } });
    expect(decideGroup(state("down"), "up", "up", now, false)).toMatchObject({ status: "up", alert: "up" });
  });

  it("undecided: an up group goes pending, a pending one stays silently, a down one stays down", () => {
    expect(decideGroup(state("up"), "pending", "p", now, false)).toMatchObject({
      status: "pending",
      alert: null,
      event: { event_type: "pending" },
    });
    expect(decideGroup(state("pending"), "pending", "p", now, false)).toMatchObject({ status: "pending", event: null });
    expect(decideGroup(state("down"), "pending", "p", now, false)).toMatchObject({ status: "down", event: null, alert: null });
  });

  it("is maintenance while a window covers the group, whatever its members say", () => {
    expect(decideGroup(state("down"), "down", "d", now, true)).toMatchObject({ status: "maintenance", alert: null });
  });
});
