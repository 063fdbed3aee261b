// The Pushover provider against its recorded fixture, tests/fixtures/notifications/pushover.json
// (support.ts), and what a case cannot say: the sink's fixed priority, emergency only for critical, the
// documented limits, and the emergency bounds checked when the sink is saved.
import { describe, expect, it } from "vitest";
import { splitProviderConfig } from "../../../../shared/domain/notifications/notifier-config.ts";
import { pushover } from "../../../../shared/domain/notifications/notifiers/pushover.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(pushover);

const sent = (config: Record<string, unknown>, message = DEFAULT_ALERT) =>
  JSON.parse(pushover.render({ config: { user: "u", ...config }, secrets: { token: "t" }, message, nowSecs: 0 }).body);

describe("pushover", () => {
  it("takes the sink's fixed priority; an emergency only for a critical alert", () => {
    expect(sent({ priority: -2 }).priority).toBe(-2);
    expect(sent({ emergency: true }, { ...DEFAULT_ALERT, severity: "warning" })).toMatchObject({ priority: 0 });
    expect(sent({ emergency: true }, { ...DEFAULT_ALERT, severity: "warning" }).retry).toBeUndefined();
    expect(sent({ priority: 2 })).toMatchObject({ priority: 2, retry: 60, expire: 3600, tags: DEFAULT_ALERT.dedup_key });
  });

  it("clips title to 250 and message to 1024 characters, and leaves out a link over 512", () => {
    const body = sent(
      {},
      { ...DEFAULT_ALERT, title: "t".repeat(400), body: "b".repeat(3000), links: { alert: `https://x.example/${"p".repeat(600)}` } },
    );
    expect(body.title).toHaveLength(250);
    expect(body.message).toHaveLength(1024);
    expect(body.url).toBeUndefined();
  });

  it("refuses emergency retry below 30 s and expire above 3 h when the sink is saved", () => {
    const { issues } = splitProviderConfig("pushover", { user: "u", token: "t", retry: 10, expire: 20000 });
    expect(issues.map((i) => i.loc.join("."))).toEqual(["body.provider_config.retry", "body.provider_config.expire"]);
  });
});
