// The zulip provider against its recorded fixture, tests/fixtures/notifications/zulip.json (support.ts).
import { describe, expect, it } from "vitest";
import { secretKeys } from "../../../../shared/domain/notifications/notifiers/index.ts";
import { splitProviderConfig } from "../../../../shared/domain/notifications/notifier-config.ts";
import { byteLength } from "../../../../shared/domain/notifications/message-text.ts";
import { LONG_BODY, renderOf } from "./render.ts";
import { zulip } from "../../../../shared/domain/notifications/notifiers/zulip.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(zulip);

describe("zulip provider", () => {
  const config = { base_url: "https://zulip.example.org", bot_email: "bot@zulip.example.org", stream: "ops" };
  const secrets = { api_key: "k" };
  const formOf = async (c: Record<string, unknown>, m: Parameters<typeof renderOf>[3] = {}) =>
    new URLSearchParams((await renderOf(zulip, c, secrets, m)).body);

  it("keeps the API key secret and needs the site, bot, key and channel", () => {
    expect(secretKeys("zulip")).toEqual(["api_key"]);
    const { issues } = splitProviderConfig("zulip", {});
    expect(issues.map((i) => i.loc[2]).sort()).toEqual(["api_key", "base_url", "bot_email", "stream"]);
  });

  it("puts an alert and its recovery in one topic, another incident in another", async () => {
    const firing = (await formOf(config, { dedup_key: "ctl-incident-9" })).get("topic");
    expect((await formOf(config, { dedup_key: "ctl-incident-9", status: "resolved" })).get("topic")).toBe(firing);
    expect((await formOf(config, { dedup_key: "ctl-incident-10" })).get("topic")).not.toBe(firing);
  });

  it("keeps the topic within 60 characters and the content within 10,000 bytes, link included", async () => {
    const form = await formOf(
      { ...config, topic: "t".repeat(200) },
      { body: LONG_BODY, links: { alert: "https://cp.example.com/alerts/1" } },
    );
    expect(form.get("topic")!.length).toBeLessThanOrEqual(60);
    expect(byteLength(form.get("content")!)).toBeLessThanOrEqual(10000);
    expect(form.get("content")!.endsWith("[Open the alert](https://cp.example.com/alerts/1)")).toBe(true);
  });
});
