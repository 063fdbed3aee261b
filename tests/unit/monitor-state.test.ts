// decide(), the monitor state machine (spec/catalogue.tsv, group monitors), and when a
// maintenance window is open.
import { describe, expect, it } from "vitest";
import { openSpan, windowOpen } from "../../shared/domain/monitors/maintenance-window.ts";
import { decide, type MonitorState } from "../../shared/domain/monitors/state.ts";

const now = new Date("2026-11-02T10:00:00Z");
const state = (over: Partial<MonitorState> = {}): MonitorState => ({
  status: "pending",
  retries: 0,
  max_retries: 0,
  interval_secs: 60,
  retry_interval_secs: null,
  last_status_change_at: null,
  ...over,
});
const ok = { up: true, msg: "HTTP 200" };
const bad = { up: false, msg: "status 500" };

describe("decide", () => {
  it("success: up stays up silently; anything else becomes up, alerting only a recovery from down", () => {
    expect(decide(state({ status: "up" }), ok, now)).toEqual({ status: "up", retries: 0, event: null, alert: null, next_check_secs: 60 });
    const first = decide(state(), ok, now);
    expect([first.status, first.event?.event_type, first.alert]).toEqual(["up", "up", null]);
    const recovered = decide(state({ status: "down", retries: 4, last_status_change_at: new Date(now.getTime() - 90_000) }), ok, now);
    expect(recovered).toMatchObject({
      status: "up",
      retries: 0,
      alert: "up",
      event: { event_type: "up", status_from: "down", status_to: "up", duration_secs: 90 },
    });
  });

  it("failure with max_retries 0 goes straight to down with an alert", () => {
    expect(decide(state({ status: "up" }), bad, now)).toMatchObject({
      status: "down",
      retries: 1,
      alert: "down",
      event: { event_type: "down", status_from: "up" },
    });
  });

  it("failures within max_retries are pending (one event on entering), checked after retry_interval_secs", () => {
    const m = state({ status: "up", max_retries: 2, retry_interval_secs: 15 });
    const one = decide(m, bad, now);
    expect(one).toMatchObject({
      status: "pending",
      retries: 1,
      alert: null,
      next_check_secs: 15,
      event: { event_type: "pending", status_from: "up" },
    });
    const two = decide({ ...m, status: "pending", retries: 1 }, bad, now);
    expect(two).toMatchObject({ status: "pending", retries: 2, event: null, alert: null });
    const three = decide({ ...m, status: "pending", retries: 2 }, bad, now);
    expect(three).toMatchObject({
      status: "down",
      retries: 3,
      alert: "down",
      next_check_secs: 60,
      event: { event_type: "down", status_from: "pending" },
    });
  });

  it("a pending monitor without retry_interval_secs retries at its interval", () => {
    expect(decide(state({ status: "up", max_retries: 1 }), bad, now).next_check_secs).toBe(60);
  });

  it("down stays down without an event or a second alert", () => {
    expect(decide(state({ status: "down", retries: 3, max_retries: 5 }), bad, now)).toEqual({
      status: "down",
      retries: 4,
      event: null,
      alert: null,
      next_check_secs: 60,
    });
  });

  it("maintenance overrides the result: one event on entering, never an alert, counter reset", () => {
    const entering = decide(state({ status: "down", retries: 3 }), bad, now, true);
    expect(entering).toMatchObject({
      status: "maintenance",
      retries: 0,
      alert: null,
      event: { event_type: "maintenance", status_from: "down" },
    });
    expect(decide(state({ status: "maintenance" }), ok, now, true).event).toBeNull();
    // After the window the next result decides as from pending: a failure alerts, a success does not.
    expect(decide(state({ status: "maintenance" }), bad, now)).toMatchObject({ status: "down", alert: "down" });
    expect(decide(state({ status: "maintenance" }), ok, now)).toMatchObject({ status: "up", alert: null });
  });

  it("truncates the event message to 2000 characters", () => {
    expect(decide(state({ status: "up" }), { up: false, msg: "x".repeat(5000) }, now).event?.msg).toHaveLength(2000);
  });
});

describe("windowOpen", () => {
  const base = { enabled: true, starts_at: null, ends_at: null, cron: null, duration_minutes: null, timezone: null };
  it("one-off: open from starts_at until ends_at", () => {
    const w = { ...base, kind: "one_off", starts_at: new Date("2026-11-02T09:00:00Z"), ends_at: new Date("2026-11-02T10:00:00Z") };
    expect(windowOpen(w, new Date("2026-11-02T09:59:59Z"))).toBe(true);
    expect(windowOpen(w, new Date("2026-11-02T10:00:00Z"))).toBe(false);
    expect(windowOpen({ ...w, enabled: false }, new Date("2026-11-02T09:30:00Z"))).toBe(false);
  });
  it("recurring: open for duration_minutes after each occurrence, in its timezone", () => {
    const w = { ...base, kind: "recurring", cron: "0 2 * * 0", duration_minutes: 120, timezone: "Europe/Berlin" };
    // Sunday 2026-11-01 02:00 Berlin (CET, UTC+1) = 01:00 UTC.
    expect(windowOpen(w, new Date("2026-11-01T00:59:00Z"))).toBe(false);
    expect(windowOpen(w, new Date("2026-11-01T01:00:00Z"))).toBe(true);
    expect(windowOpen(w, new Date("2026-11-01T02:59:00Z"))).toBe(true);
    expect(windowOpen(w, new Date("2026-11-01T03:00:00Z"))).toBe(false);
    expect(windowOpen({ ...w, cron: "not a cron" }, new Date("2026-11-01T01:30:00Z"))).toBe(false);
  });
  it("openSpan: the open occurrence's start and end, a recurring run cut at the window's ends_at", () => {
    const w = { ...base, kind: "recurring", cron: "0 2 * * 0", duration_minutes: 120, timezone: "Europe/Berlin" };
    const at = new Date("2026-11-01T01:30:00Z");
    expect(openSpan(w, at)).toEqual([new Date("2026-11-01T01:00:00Z"), new Date("2026-11-01T03:00:00Z")]);
    const cut = { ...w, ends_at: new Date("2026-11-01T02:00:00Z") };
    expect(openSpan(cut, at)).toEqual([new Date("2026-11-01T01:00:00Z"), new Date("2026-11-01T02:00:00Z")]);
    expect(openSpan(w, new Date("2026-11-01T03:00:00Z"))).toBeNull();
  });
});
