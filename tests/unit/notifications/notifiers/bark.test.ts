// The bark provider against its recorded fixture, tests/fixtures/notifications/bark.json (support.ts).
import { describe, expect, it } from "vitest";
import { bark } from "../../../../shared/domain/notifications/notifiers/bark.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(bark);

describe("bark render", () => {
  it("pushes to the public api.day.app unless the sink names its own server", async () => {
    const spec = await bark.render({ config: {}, secrets: { device_key: "k" }, message: DEFAULT_ALERT, nowSecs: 1793613600 });
    expect(spec.url).toBe("https://api.day.app/push");
  });
});
