// A first snapshot of a large risky network: 20 alerts, one per (rule, device), then one summary alert
// for the rest, so a new installation does not flood its notification routes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ALERTS } from "../../../shared/verbs/privacy/take-snapshot.ts";
import { createPrivacyActors, type PrivacyActors } from "./support.ts";

let a: PrivacyActors;
beforeAll(async () => {
  a = await createPrivacyActors();
});
afterAll(async () => {
  await a?.t.close();
});

describe("new findings of one snapshot", () => {
  it("become at most 20 alerts and one summary, critical when any of the rest is", async () => {
    for (let i = 1; i <= 24; i++) await a.device(`cam-${i}`, `10.4.0.${i}`, null, [{ port: 23 }, { port: 1883 }]);
    const out = await a.refresh();
    expect(out).toMatchObject({ findings: 48, new_findings: 48, score: 0, grade: "F" });
    const alerts = await a.alerts();
    expect(alerts).toHaveLength(MAX_ALERTS + 1);
    expect(alerts.slice(0, MAX_ALERTS).every((x) => x.kind === "privacy.finding")).toBe(true);
    expect(new Set(alerts.slice(0, MAX_ALERTS).map((x) => x.detail.check_id)).size).toBe(MAX_ALERTS);
    expect(alerts[MAX_ALERTS]).toMatchObject({
      kind: "privacy.finding.summary",
      severity: "critical",
      target_id: null,
      title: "Privacy analysis: 28 more new findings",
    });
    expect(alerts[MAX_ALERTS]!.detail).toMatchObject({ total: 48, snapshot_id: out.snapshot_id });
    // Nothing new the second time.
    expect((await a.refresh()).new_findings).toBe(0);
    expect(await a.alerts()).toHaveLength(MAX_ALERTS + 1);
  });
});
