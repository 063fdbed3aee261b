// The pure rules: severity floors and aliases, kind patterns, masking, backoff bounds, root choice.
import { describe, expect, it } from "vitest";
import { backoffMs } from "../../../shared/domain/notifications/backoff.ts";
import { chooseRoot } from "../../../shared/domain/notifications/grouping.ts";
import { maskSecret } from "../../../shared/domain/notifications/mask.ts";
import { kindAdmitted, routeAdmits } from "../../../shared/domain/notifications/severity.ts";

describe("notification rules", () => {
  it("treats route severity as a floor; unknown alert severity ranks critical", () => {
    expect(routeAdmits("warning", "info")).toBe(false);
    expect(routeAdmits("warning", "warn")).toBe(true);
    expect(routeAdmits("critical", "banana")).toBe(true);
    expect(routeAdmits("*", "debug")).toBe(true);
    expect(kindAdmitted(["monitor.*"], "monitor.down")).toBe(true);
    expect(kindAdmitted(["monitor.down"], "monitor.up")).toBe(false);
    expect(kindAdmitted([], "anything")).toBe(true);
  });

  it("masks URLs to scheme, host and first segment", () => {
    expect(maskSecret("https://hooks.slack.com/services/T/B/X")).toBe("https://hooks.slack.com/services/•••");
    expect(maskSecret("tk_abc")).toBe("•••");
  });

  it("backs off exponentially with jitter, capped", () => {
    const p = { baseMs: 1000, capMs: 10_000 };
    expect(backoffMs(p, 1, 0)).toBe(500);
    expect(backoffMs(p, 3, 0.999)).toBeLessThanOrEqual(4000);
    expect(backoffMs(p, 20, 0.999)).toBeLessThanOrEqual(10_000);
  });

  it("folds into the widest root, and never silences both ends of a cycle", () => {
    const sw = { alert_id: 1, target: "hardware:1", suppressed_by: null, radius: new Set(["hardware:2", "service:5"]) };
    const host = { alert_id: 2, target: "hardware:2", suppressed_by: 1, radius: new Set(["service:5"]) };
    expect(chooseRoot(3, "service:5", new Set(), [sw, host])).toBe(1);
    const a = { alert_id: 10, target: "hardware:10", suppressed_by: null, radius: new Set(["hardware:11"]) };
    const b = { alert_id: 11, target: "hardware:11", suppressed_by: null, radius: new Set(["hardware:10"]) };
    expect(chooseRoot(10, a.target, a.radius, [a, b])).toBeNull();
    expect(chooseRoot(11, b.target, b.radius, [a, b])).toBe(10);
  });
});
