// Quiet hours read on the zone's wall clock (docs/adr/0450-quiet-hours-and-digests.md): windows past
// midnight, the day a window starts on, and DST changes in both directions (Europe/Berlin, 2026-03-29
// and 2026-10-25; America/New_York, 2026-03-08).
import { describe, expect, it } from "vitest";
import { heldBy, isQuiet, knownZone, type QuietSchedule, quietUntil } from "../../../shared/domain/notifications/quiet-hours.ts";

const nightly = (timezone: string, days = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]): QuietSchedule => ({
  timezone,
  windows: [{ days, start: "22:00", end: "07:00" }],
  hold_below: "critical",
});
const at = (iso: string) => new Date(iso);

describe("quiet hours", () => {
  it("a window past midnight holds from its start to the next morning, local time", () => {
    const q = nightly("Europe/Berlin");
    expect(isQuiet(q, at("2026-11-29T20:59:00Z"))).toBe(false); // 21:59 CET
    expect(isQuiet(q, at("2026-11-29T21:00:00Z"))).toBe(true); // 22:00
    expect(isQuiet(q, at("2026-11-30T05:59:00Z"))).toBe(true); // 06:59
    expect(isQuiet(q, at("2026-11-30T06:00:00Z"))).toBe(false); // 07:00
    expect(quietUntil(q, at("2026-11-29T23:30:00Z"))?.toISOString()).toBe("2026-11-30T06:00:00.000Z");
    expect(quietUntil(q, at("2026-11-29T12:00:00Z"))).toBeNull();
  });

  it("the days name the day a window starts on: Friday night runs into Saturday", () => {
    const q = nightly("UTC", ["fri"]);
    expect(isQuiet(q, at("2026-11-28T03:00:00Z"))).toBe(true); // Saturday 03:00, from Friday's window
    expect(isQuiet(q, at("2026-11-29T03:00:00Z"))).toBe(false); // Sunday 03:00: Saturday has no window
    expect(isQuiet(q, at("2026-11-27T23:00:00Z"))).toBe(true); // Friday 23:00
  });

  it("windows that touch are one quiet period", () => {
    const q: QuietSchedule = {
      timezone: "UTC",
      windows: [
        { days: ["sat"], start: "00:00", end: "24:00" },
        { days: ["sun"], start: "00:00", end: "12:00" },
      ],
      hold_below: "warning",
    };
    expect(quietUntil(q, at("2026-11-28T10:00:00Z"))?.toISOString()).toBe("2026-11-29T12:00:00.000Z");
  });

  it("spring forward (Berlin): the night is an hour shorter and ends at 07:00 CEST", () => {
    const q = nightly("Europe/Berlin");
    // 2026-03-29: 02:00 CET becomes 03:00 CEST; 07:00 CEST is 05:00 UTC.
    expect(quietUntil(q, at("2026-03-28T23:00:00Z"))?.toISOString()).toBe("2026-03-29T05:00:00.000Z");
    expect(isQuiet(q, at("2026-03-29T04:59:00Z"))).toBe(true);
    expect(isQuiet(q, at("2026-03-29T05:00:00Z"))).toBe(false);
  });

  it("fall back (Berlin): the night is an hour longer and ends at 07:00 CET", () => {
    const q = nightly("Europe/Berlin");
    // 2026-10-25: 03:00 CEST becomes 02:00 CET; 07:00 CET is 06:00 UTC.
    expect(quietUntil(q, at("2026-10-24T21:00:00Z"))?.toISOString()).toBe("2026-10-25T06:00:00.000Z");
    expect(isQuiet(q, at("2026-10-25T05:30:00Z"))).toBe(true); // 06:30 CET
    // The window starts at 22:00 CEST the evening before: 20:00 UTC.
    expect(isQuiet(q, at("2026-10-24T19:59:00Z"))).toBe(false);
    expect(isQuiet(q, at("2026-10-24T20:00:00Z"))).toBe(true);
  });

  it("a window ending inside the skipped hour ends when the clock jumps past it (New York)", () => {
    const q: QuietSchedule = {
      timezone: "America/New_York",
      windows: [{ days: ["sun"], start: "00:00", end: "02:30" }],
      hold_below: "warning",
    };
    // 2026-03-08: 02:00 EST becomes 03:00 EDT; 02:30 does not exist, the window ends at 03:30 EDT at the latest.
    const end = quietUntil(q, at("2026-03-08T06:00:00Z"))!; // 01:00 EST
    expect(end.getTime()).toBeGreaterThanOrEqual(Date.parse("2026-03-08T07:00:00Z")); // 03:00 EDT
    expect(end.getTime()).toBeLessThanOrEqual(Date.parse("2026-03-08T07:30:00Z"));
    expect(isQuiet(q, end)).toBe(false);
  });

  it("holds below the threshold; critical always passes", () => {
    expect(heldBy("critical", "warning")).toBe(true);
    expect(heldBy("critical", "info")).toBe(true);
    expect(heldBy("critical", "critical")).toBe(false);
    expect(heldBy("warning", "warning")).toBe(false);
    expect(heldBy("warning", "info")).toBe(true);
    expect(heldBy("warning", "bogus")).toBe(false); // an unknown severity ranks as critical
  });

  it("knows IANA zones", () => {
    expect(knownZone("Europe/Berlin")).toBe(true);
    expect(knownZone("Mars/Olympus")).toBe(false);
  });
});
