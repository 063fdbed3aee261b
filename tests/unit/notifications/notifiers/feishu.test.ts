// The feishu provider against its recorded fixture, tests/fixtures/notifications/feishu.json (support.ts).
import { describe, expect, it } from "vitest";
import { splitProviderConfig } from "../../../../shared/domain/notifications/notifier-config.ts";
import { feishu } from "../../../../shared/domain/notifications/notifiers/feishu.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(feishu);

describe("feishu render and config", () => {
  const render = (config: Record<string, unknown>, secrets: Record<string, string>) =>
    Promise.resolve(feishu.render({ config, secrets, message: DEFAULT_ALERT, nowSecs: 1793613600 }));

  it("builds the webhook from a token and the region: Feishu by default, Lark when chosen", async () => {
    expect((await render({}, { token: "f19a2b3c" })).url).toBe("https://open.feishu.cn/open-apis/bot/v2/hook/f19a2b3c");
    expect((await render({ region: "lark" }, { token: "f19a2b3c" })).url).toBe("https://open.larksuite.com/open-apis/bot/v2/hook/f19a2b3c");
  });

  it("needs the webhook URL or its token, and takes either", () => {
    const none = splitProviderConfig("feishu", { region: "lark" });
    expect(none.issues.map((i) => [i.loc.join("."), i.msg])).toEqual([
      ["body.provider_config.webhook_url", "webhook_url (or token) is required for a feishu sink."],
    ]);
    expect(splitProviderConfig("feishu", { token: "f19a2b3c", region: "lark" }).issues).toEqual([]);
    expect(splitProviderConfig("feishu", { webhook_url: "https://open.feishu.cn/open-apis/bot/v2/hook/x" }).issues).toEqual([]);
    expect(splitProviderConfig("feishu", { token: "t", region: "cn" }).issues[0]?.msg).toContain("must be one of feishu, lark");
  });
});
