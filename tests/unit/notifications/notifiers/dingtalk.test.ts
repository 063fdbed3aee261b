// The dingtalk provider against its recorded fixture, tests/fixtures/notifications/dingtalk.json (support.ts).
import { describe, expect, it } from "vitest";
import { dingtalk } from "../../../../shared/domain/notifications/notifiers/dingtalk.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(dingtalk);

describe("dingtalk render", () => {
  it("keeps a long message under DingTalk's size cap, counted in UTF-8 bytes", async () => {
    const spec = await dingtalk.render({
      config: {},
      secrets: { webhook_url: "https://oapi.dingtalk.com/robot/send?access_token=x" },
      message: { ...DEFAULT_ALERT, body: "磁盘".repeat(20_000) },
      nowSecs: 1793613600,
    });
    const text = (JSON.parse(spec.body) as { markdown: { text: string } }).markdown.text;
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(15_000);
    expect(text.endsWith("…")).toBe(true);
  });
});
