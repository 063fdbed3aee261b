import { describe, expect, it } from "vitest";
import { assessConfigurations, type NvdConfiguration } from "../../../shared/domain/cve/applicability.ts";

const m = (criteria: string, extra: Record<string, unknown> = {}, vulnerable = true) => ({
  vulnerable,
  criteria,
  matchCriteriaId: "X",
  ...extra,
});
const or = (...cpeMatch: ReturnType<typeof m>[]): NvdConfiguration => ({ nodes: [{ operator: "OR", negate: false, cpeMatch }] });

// CVE-2021-44228 (Log4Shell) as NVD lists log4j's ranges.
const log4shell: NvdConfiguration[] = [
  or(
    m("cpe:2.3:a:apache:log4j:*:*:*:*:*:*:*:*", { versionStartIncluding: "2.0.1", versionEndExcluding: "2.3.1" }),
    m("cpe:2.3:a:apache:log4j:*:*:*:*:*:*:*:*", { versionStartIncluding: "2.4.0", versionEndExcluding: "2.12.2" }),
    m("cpe:2.3:a:apache:log4j:*:*:*:*:*:*:*:*", { versionStartIncluding: "2.13.0", versionEndExcluding: "2.15.0" }),
    m("cpe:2.3:a:apache:log4j:2.0:beta9:*:*:*:*:*:*"),
  ),
];

// A "running on" configuration: RouterOS firmware (vulnerable) AND some hardware (platform, not vulnerable).
const runningOn: NvdConfiguration[] = [
  {
    operator: "AND",
    nodes: [
      { operator: "OR", negate: false, cpeMatch: [m("cpe:2.3:o:vendor:firmware:*:*:*:*:*:*:*:*", { versionEndExcluding: "4.2" })] },
      { operator: "OR", negate: false, cpeMatch: [m("cpe:2.3:h:vendor:box_100:-:*:*:*:*:*:*:*", {}, false)] },
    ],
  },
];

describe("configuration applicability", () => {
  const id = (vendor: string, product: string, version: string | null) => ({ vendor, product, version });

  it("matches in range, not at an excluding end, and an exact version with an update", () => {
    expect(assessConfigurations(log4shell, id("apache", "log4j", "2.14.1")).applies).toBe(true);
    expect(assessConfigurations(log4shell, id("apache", "log4j", "2.15.0")).applies).toBe(false);
    expect(assessConfigurations(log4shell, id("apache", "log4j", "2.12.2")).applies).toBe(false);
    expect(assessConfigurations(log4shell, id("apache", "log4j", "2.0beta9")).applies).toBe(true);
    expect(assessConfigurations(log4shell, id("apache", "log4j", "1.2.17")).applies).toBe(false);
  });

  it("is unknown without a version or with an unorderable one, and says why", () => {
    const none = assessConfigurations(log4shell, id("apache", "log4j", null));
    expect(none.applies).toBeNull();
    expect(none.relevant).toBe(true);
    expect(none.evidence.every((e) => e.version_result === "unknown" && e.reason === "version_missing")).toBe(true);
    const odd = assessConfigurations(log4shell, id("apache", "log4j", "2.14.1-rc1"));
    expect(odd.applies).toBeNull();
    expect(odd.evidence.some((e) => e.reason === "version_unsupported")).toBe(true);
  });

  it("is false and irrelevant for another product", () => {
    const other = assessConfigurations(log4shell, id("apache", "http_server", "2.4.49"));
    expect(other).toEqual({ applies: false, relevant: false, evidence: [] });
  });

  it("leaves a platform condition it cannot check as unknown, and decides the firmware half", () => {
    const fw = assessConfigurations(runningOn, id("vendor", "firmware", "4.1"));
    expect(fw.applies).toBeNull();
    expect(fw.evidence.map((e) => e.reason)).toEqual(["version_in_range", "platform_unverifiable"]);
    expect(assessConfigurations(runningOn, id("vendor", "firmware", "4.2")).applies).toBe(false);
    // The hardware itself is not the vulnerable product: irrelevant.
    expect(assessConfigurations(runningOn, id("vendor", "box_100", null)).relevant).toBe(false);
  });

  it("applies node negation and AND nodes", () => {
    const conf: NvdConfiguration[] = [
      {
        operator: "AND",
        nodes: [
          { operator: "OR", cpeMatch: [m("cpe:2.3:a:x:y:*:*:*:*:*:*:*:*", { versionEndIncluding: "3.0" })] },
          { operator: "OR", negate: true, cpeMatch: [m("cpe:2.3:a:x:y:2.5:*:*:*:*:*:*:*")] },
        ],
      },
    ];
    expect(assessConfigurations(conf, id("x", "y", "2.4")).applies).toBe(true);
    expect(assessConfigurations(conf, id("x", "y", "2.5")).applies).toBe(false);
    expect(assessConfigurations(conf, id("x", "y", "3.0.0")).applies).toBe(true);
    expect(assessConfigurations(conf, id("x", "y", "3.0.1")).applies).toBe(false);
  });

  it("treats an NA version as version-less (hardware) and ANY without bounds as every version", () => {
    const hw = [or(m("cpe:2.3:h:tp-link:archer_c7:-:*:*:*:*:*:*:*"))];
    expect(assessConfigurations(hw, id("tp-link", "archer_c7", null)).evidence[0]).toMatchObject({
      version_result: "match",
      reason: "version_not_applicable",
    });
    const any = [or(m("cpe:2.3:a:x:y:*:*:*:*:*:*:*:*"))];
    expect(assessConfigurations(any, id("x", "y", null)).applies).toBe(true);
  });

  it("compares an exact version whose update it cannot order as unknown", () => {
    const openssh = [or(m("cpe:2.3:a:openbsd:openssh:9.3:p1:*:*:*:*:*:*"))];
    expect(assessConfigurations(openssh, id("openbsd", "openssh", "9.3p1")).applies).toBe(true);
    expect(assessConfigurations(openssh, id("openbsd", "openssh", "9.3")).applies).toBeNull();
    expect(assessConfigurations(openssh, id("openbsd", "openssh", "9.4")).applies).toBe(false);
  });

  it("reports a criterion that is not CPE 2.3 as unknown evidence", () => {
    const bad = [or(m("cpe:/a:x:y"))];
    const r = assessConfigurations(bad, id("x", "y", "1"));
    expect(r.applies).toBeNull();
    expect(r.evidence[0]!.reason).toBe("criteria_invalid");
  });
});
