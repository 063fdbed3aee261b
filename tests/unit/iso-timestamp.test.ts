// The fast ISO formatter must say exactly what toISOString says, for any instant.
import { describe, expect, it } from "vitest";
import { isoTimestamp } from "../../shared/domain/iso-timestamp.ts";

describe("isoTimestamp", () => {
  it("matches toISOString on hand-picked instants", () => {
    for (const ms of [
      0,
      -1,
      1,
      999,
      1000,
      86_399_999,
      Date.UTC(2026, 10, 23, 22, 4, 0, 123),
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(1000, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ])
      expect(isoTimestamp(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it("matches toISOString on 100,000 random instants, extended years included", () => {
    const lo = Date.UTC(-5000, 0, 1);
    const hi = Date.UTC(12000, 0, 1);
    for (let i = 0; i < 100_000; i++) {
      const d = new Date(lo + Math.floor(Math.random() * (hi - lo)));
      expect(isoTimestamp(d)).toBe(d.toISOString());
    }
  });
});
