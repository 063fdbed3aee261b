// The PagerDuty provider against its recorded fixture, tests/fixtures/notifications/pagerduty.json
// (support.ts), and what a case cannot say: the region's host, the documented summary limit.
import { describe, expect, it } from "vitest";
import { pagerduty } from "../../../../shared/domain/notifications/notifiers/pagerduty.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(pagerduty);

const render = (config: Record<string, unknown>, message = DEFAULT_ALERT) =>
  pagerduty.render({ config, secrets: { routing_key: "k" }, message, nowSecs: 0 });

describe("pagerduty", () => {
  it("sends to the US events host by default and to the EU one for region eu; base_url wins", () => {
    expect(render({}).url).toBe("https://events.pagerduty.com/v2/enqueue");
    expect(render({ region: "eu" }).url).toBe("https://events.eu.pagerduty.com/v2/enqueue");
    expect(render({ region: "eu", base_url: "https://pd-gw.example.com/" }).url).toBe("https://pd-gw.example.com/v2/enqueue");
  });

  it("clips the summary to PagerDuty's 1024 characters", () => {
    const body = JSON.parse(render({}, { ...DEFAULT_ALERT, title: "x".repeat(2000) }).body);
    expect(body.payload.summary).toHaveLength(1024);
  });
});
