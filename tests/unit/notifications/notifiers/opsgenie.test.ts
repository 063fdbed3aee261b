// The Opsgenie provider against its recorded fixture, tests/fixtures/notifications/opsgenie.json
// (support.ts), and what a case cannot say: the EU host, an alias escaped in the close path, the limits.
import { describe, expect, it } from "vitest";
import { opsgenie } from "../../../../shared/domain/notifications/notifiers/opsgenie.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(opsgenie);

const render = (config: Record<string, unknown>, message = DEFAULT_ALERT) =>
  opsgenie.render({ config, secrets: { api_key: "k" }, message, nowSecs: 0 });

describe("opsgenie", () => {
  it("creates on the US API by default and on the EU one for region eu", () => {
    expect(render({}).url).toBe("https://api.opsgenie.com/v2/alerts");
    expect(render({ region: "eu" }).url).toBe("https://api.eu.opsgenie.com/v2/alerts");
  });

  it("closes by an alias escaped in the path", () => {
    const spec = render({}, { ...DEFAULT_ALERT, status: "resolved", dedup_key: "ctl-monitor:7/x" });
    expect(spec.url).toBe("https://api.opsgenie.com/v2/alerts/ctl-monitor%3A7%2Fx/close?identifierType=alias");
  });

  it("clips message to 130 and description to 15000 characters, the link kept whole", () => {
    const link = "https://cp.example.com/alerts/41";
    const body = JSON.parse(render({}, { ...DEFAULT_ALERT, title: "t".repeat(300), body: "b".repeat(20000), links: { alert: link } }).body);
    expect(body.message).toHaveLength(130);
    expect(body.description).toHaveLength(15000);
    expect(body.description.endsWith(`\n${link}`)).toBe(true);
  });
});
