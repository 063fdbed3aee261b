// The SIGNL4 provider against its recorded fixture, tests/fixtures/notifications/signl4.json (support.ts),
// and what a case cannot say: the public endpoint, an event opening a Signl of its own.
import { describe, expect, it } from "vitest";
import { signl4 } from "../../../../shared/domain/notifications/notifiers/signl4.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(signl4);

describe("signl4", () => {
  it("posts to connect.signl4.com; an event opens a Signl under its own key", () => {
    const spec = signl4.render({
      config: {},
      secrets: { team_secret: "t1" },
      message: { ...DEFAULT_ALERT, status: "event", dedup_key: "ctl-alert-5" },
      nowSecs: 0,
    });
    expect(spec.url).toBe("https://connect.signl4.com/webhook/t1");
    expect(JSON.parse(spec.body)).toMatchObject({ "X-S4-ExternalID": "ctl-alert-5", "X-S4-Status": "new" });
  });
});
