// The Alertmanager provider against its recorded fixture, tests/fixtures/notifications/alertmanager.json
// (support.ts), and what a case cannot say: a firing alert and its recovery are the same Alertmanager
// alert (the same label set) even when their severities differ.
import { describe, expect, it } from "vitest";
import { alertmanager } from "../../../../shared/domain/notifications/notifiers/alertmanager.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(alertmanager);

const labelsOf = (message: typeof DEFAULT_ALERT) =>
  JSON.parse(alertmanager.render({ config: { base_url: "https://am.example.com" }, secrets: {}, message, nowSecs: 1793614200 }).body)[0]
    .labels;

describe("alertmanager", () => {
  it("labels a firing alert and its recovery alike, whatever their severities", () => {
    const data = { monitor_id: 7, target_type: null, target_id: null, detail: {} };
    const degraded = labelsOf({ ...DEFAULT_ALERT, kind: "monitor.degraded", severity: "warning", data });
    const down = labelsOf({ ...DEFAULT_ALERT, kind: "monitor.down", severity: "critical", data });
    const up = labelsOf({ ...DEFAULT_ALERT, kind: "monitor.up", status: "resolved", severity: "info", data });
    expect(down).toEqual(degraded);
    expect(up).toEqual(down);
  });
});
