// The Twilio provider against its recorded fixture, tests/fixtures/notifications/twilio.json (support.ts),
// and what a case cannot say: the public API, the SMS limit with the link kept whole.
import { describe, expect, it } from "vitest";
import { twilio } from "../../../../shared/domain/notifications/notifiers/twilio.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(twilio);

describe("twilio", () => {
  it("posts to api.twilio.com and keeps the Body within 1600 characters, the link whole", () => {
    const link = "https://cp.example.com/alerts/41";
    const spec = twilio.render({
      config: { account_sid: "AC1", from: "+15017122661", to: "+15558675310" },
      secrets: { auth_token: "t" },
      message: { ...DEFAULT_ALERT, body: "b".repeat(5000), links: { alert: link } },
      nowSecs: 0,
    });
    expect(spec.url).toBe("https://api.twilio.com/2010-04-01/Accounts/AC1/Messages.json");
    const body = new URLSearchParams(spec.body).get("Body")!;
    expect(body).toHaveLength(1600);
    expect(body.startsWith("[critical] Server down\n")).toBe(true);
    expect(body.endsWith(`\n${link}`)).toBe(true);
  });
});
