// The wecom provider against its recorded fixture, tests/fixtures/notifications/wecom.json (support.ts).
import { describe, expect, it } from "vitest";
import { wecom } from "../../../../shared/domain/notifications/notifiers/wecom.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(wecom);

describe("wecom render", () => {
  it("clips the markdown to WeCom's 4096 UTF-8 bytes, never inside a character", async () => {
    const spec = await wecom.render({
      config: {},
      secrets: { webhook_url: "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k" },
      message: { ...DEFAULT_ALERT, body: "服务器没有响应".repeat(1000) },
      nowSecs: 1793613600,
    });
    const content = (JSON.parse(spec.body) as { markdown: { content: string } }).markdown.content;
    expect(new TextEncoder().encode(content).length).toBeLessThanOrEqual(4096);
    expect(content).not.toContain("\uFFFD");
    expect(content.endsWith("…")).toBe(true);
  });
});
