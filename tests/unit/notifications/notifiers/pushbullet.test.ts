// The Pushbullet provider against its recorded fixture, tests/fixtures/notifications/pushbullet.json
// (support.ts), and what a case cannot say: the public API.
import { describe, expect, it } from "vitest";
import { pushbullet } from "../../../../shared/domain/notifications/notifiers/pushbullet.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(pushbullet);

describe("pushbullet", () => {
  it("posts to api.pushbullet.com", () => {
    expect(pushbullet.render({ config: {}, secrets: { access_token: "o.x" }, message: DEFAULT_ALERT, nowSecs: 0 }).url).toBe(
      "https://api.pushbullet.com/v2/pushes",
    );
  });
});
