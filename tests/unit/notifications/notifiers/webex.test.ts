// The webex provider against its recorded fixture, tests/fixtures/notifications/webex.json (support.ts).
import { describe, expect, it } from "vitest";
import { secretKeys } from "../../../../shared/domain/notifications/notifiers/index.ts";
import { byteLength } from "../../../../shared/domain/notifications/message-text.ts";
import { jsonOf, LONG_BODY, renderOf } from "./render.ts";
import { webex } from "../../../../shared/domain/notifications/notifiers/webex.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(webex);

describe("webex provider", () => {
  const secrets = { bot_token: "t" };

  it("keeps the bot token secret and posts to webexapis.com by default", async () => {
    expect(secretKeys("webex")).toEqual(["bot_token"]);
    expect((await renderOf(webex, { to: "Y2lzY29zcGFyazovL3VzL1JPT00vYQ" }, secrets)).url).toBe("https://webexapis.com/v1/messages");
  });

  it("keeps the markdown within 7,439 bytes, link included", async () => {
    const spec = await renderOf(webex, { to: "r" }, secrets, { body: LONG_BODY, links: { alert: "https://cp.example.com/alerts/1" } });
    const markdown = String(jsonOf(spec).markdown);
    expect(byteLength(markdown)).toBeLessThanOrEqual(7439);
    expect(markdown.endsWith("[Open the alert](https://cp.example.com/alerts/1)")).toBe(true);
  });
});
