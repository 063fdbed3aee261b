// Spec 3.3 on every boundary: exactly at and just past 75, 60/90 and 10/15.
import { describe, expect, it } from "vitest";
import { classify, recommendationText } from "../../shared/domain/classification.ts";

const u = (cpu_avg_pct: number, cpu_peak_pct: number, mem_avg_pct: number) => ({ cpu_avg_pct, cpu_peak_pct, mem_avg_pct });
const E = 0.001;

describe("classify", () => {
  it("rule 1a: CPU average > 75", () => {
    expect(classify(u(75, 80, 50))).toBe("balanced");
    expect(classify(u(75 + E, 80, 50))).toBe("under_provisioned");
    expect(classify(u(99, 99, 99))).toBe("under_provisioned");
  });

  it("rule 1b: CPU average > 60 and peak > 90 (both strict)", () => {
    expect(classify(u(60 + E, 90 + E, 50))).toBe("under_provisioned");
    expect(classify(u(60, 90 + E, 50))).toBe("balanced");
    expect(classify(u(60 + E, 90, 50))).toBe("balanced");
    expect(classify(u(60, 90, 50))).toBe("balanced");
    expect(classify(u(70, 100, 50))).toBe("under_provisioned");
  });

  it("rule 2: CPU average < 10 and memory average < 15 (both strict)", () => {
    expect(classify(u(10 - E, 30, 15 - E))).toBe("over_provisioned");
    expect(classify(u(10, 30, 15 - E))).toBe("balanced");
    expect(classify(u(10 - E, 30, 15))).toBe("balanced");
    expect(classify(u(10, 30, 15))).toBe("balanced");
    expect(classify(u(0, 0, 0))).toBe("over_provisioned");
  });

  it("an idle CPU with busy memory is balanced; a low average with a high peak is still over-provisioned", () => {
    expect(classify(u(5, 20, 80))).toBe("balanced");
    expect(classify(u(5, 95, 10))).toBe("over_provisioned");
  });
});

describe("recommendationText", () => {
  it("names the numbers", () => {
    expect(recommendationText(u(82, 97, 40))).toBe("CPU averages 82% (peak 97%): add CPU or move workloads off this node.");
    expect(recommendationText(u(65.04, 95.26, 40))).toBe(
      "CPU averages 65% with peaks of 95.3%: add CPU headroom or move bursty workloads off this node.",
    );
    expect(recommendationText(u(4.2, 12, 9))).toBe(
      "CPU averages 4.2% (peak 12%) and memory 9%: this node is oversized; consolidate workloads onto it or reclaim its capacity.",
    );
    expect(recommendationText(u(40, 70, 40))).toBeNull();
  });
});
