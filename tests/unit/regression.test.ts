// The capacity forecast's arithmetic on hand-computed lines (the job's SQL is checked against the same
// numbers in tests/api/jobs/analytics.test.ts).
import { describe, expect, it } from "vitest";
import { DAY_MS, epochDays, hasEnoughHistory, leastSquares, projectedFullAt } from "../../shared/domain/regression.ts";

describe("leastSquares", () => {
  it("fits (0,1) (1,3) (2,2) (3,5): slope 5.5/5 = 1.1, intercept 2.75 - 1.1 * 1.5 = 1.1", () => {
    const line = leastSquares([
      { x: 0, y: 1 },
      { x: 1, y: 3 },
      { x: 2, y: 2 },
      { x: 3, y: 5 },
    ])!;
    expect(line.slope).toBeCloseTo(1.1, 12);
    expect(line.intercept).toBeCloseTo(1.1, 12);
  });

  it("recovers an exact line and refuses degenerate inputs", () => {
    const pts = [0, 1, 2, 3, 4].map((x) => ({ x, y: 40 - 0.5 * x }));
    expect(leastSquares(pts)).toEqual({ slope: -0.5, intercept: 40 });
    expect(leastSquares([{ x: 1, y: 2 }])).toBeNull();
    expect(
      leastSquares([
        { x: 1, y: 2 },
        { x: 1, y: 4 },
      ]),
    ).toBeNull();
  });
});

describe("projectedFullAt", () => {
  // 50 % at 2026-01-01T00:00Z rising 2 points a day: 50 more points take 25 days -> 2026-01-26T00:00Z.
  const t0 = Date.UTC(2026, 0, 1);
  const samples = Array.from({ length: 15 }, (_, i) => ({ x: epochDays(t0 + (i - 14) * DAY_MS), y: 50 + 2 * (i - 14) }));

  it("saturation date of a known line", () => {
    const line = leastSquares(samples)!;
    expect(line.slope).toBeCloseTo(2, 9);
    expect(projectedFullAt(line)!.getTime()).toBeCloseTo(Date.UTC(2026, 0, 26), -3); // within a second
  });

  it("a 0.25/day line from 90 % at t0 is full 40 days later", () => {
    const line = { slope: 0.25, intercept: 90 - 0.25 * epochDays(t0) };
    expect(projectedFullAt(line)!.toISOString()).toBe("2026-02-10T00:00:00.000Z");
  });

  it("no date unless the slope is positive; none past year 9999", () => {
    expect(projectedFullAt({ slope: 0, intercept: 50 })).toBeNull();
    expect(projectedFullAt({ slope: -1, intercept: 500 })).toBeNull();
    expect(projectedFullAt({ slope: 1e-12, intercept: 0 })).toBeNull();
  });

  it("a line already above 100 answers the past instant it crossed", () => {
    const line = { slope: 1, intercept: 110 - epochDays(t0) };
    expect(projectedFullAt(line)!.toISOString()).toBe("2025-12-22T00:00:00.000Z");
  });
});

describe("hasEnoughHistory", () => {
  it("needs 10 samples spread over 2 days", () => {
    expect(hasEnoughHistory(10, 2)).toBe(true);
    expect(hasEnoughHistory(9, 14)).toBe(false);
    expect(hasEnoughHistory(1000, 1.99)).toBe(false);
  });
});
