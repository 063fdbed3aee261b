// The apprise provider against its recorded fixture, tests/fixtures/notifications/apprise.json (support.ts).
import { describe, expect, it } from "vitest";
import { splitProviderConfig } from "../../../../shared/domain/notifications/notifier-config.ts";
import { apprise } from "../../../../shared/domain/notifications/notifiers/apprise.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(apprise);

describe("apprise config", () => {
  it("needs a saved configuration's key or the Apprise URLs, and keeps the URLs secret", () => {
    const none = splitProviderConfig("apprise", { base_url: "http://apprise.example:8000" });
    expect(none.issues.map((i) => i.msg)).toEqual(["config_key (or urls) is required for an apprise sink."]);
    const stateless = splitProviderConfig("apprise", { base_url: "http://apprise.example:8000", urls: "tgram://1:x/2" });
    expect(stateless.issues).toEqual([]);
    expect(stateless.value).toEqual({ plain: { base_url: "http://apprise.example:8000" }, secrets: { urls: "tgram://1:x/2" } });
  });
});
