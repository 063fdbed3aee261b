// The google_chat provider against its recorded fixture, tests/fixtures/notifications/google_chat.json (support.ts).
import { describe, expect, it } from "vitest";
import { secretKeys } from "../../../../shared/domain/notifications/notifiers/index.ts";
import { byteLength } from "../../../../shared/domain/notifications/message-text.ts";
import { jsonOf, LONG_BODY, renderOf } from "./render.ts";
import { google_chat } from "../../../../shared/domain/notifications/notifiers/google_chat.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(google_chat);

describe("google_chat provider", () => {
  const secrets = { webhook_url: "https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t" };

  it("keeps the webhook URL (with its key and token) secret", () => {
    expect(secretKeys("google_chat")).toEqual(["webhook_url"]);
  });

  it("threads an alert, its recovery and a later alert of the same incident together, another incident apart", async () => {
    const keyOf = async (m: Parameters<typeof renderOf>[3]) =>
      (jsonOf(await renderOf(google_chat, {}, secrets, m)).thread as { threadKey: string }).threadKey;
    const firing = await keyOf({ dedup_key: "ctl-incident-9" });
    expect(await keyOf({ dedup_key: "ctl-incident-9", status: "resolved" })).toBe(firing);
    expect(await keyOf({ dedup_key: "ctl-incident-10" })).not.toBe(firing);
  });

  it("adds the reply option to a URL without a query, and keeps the text within 32,000 bytes with its link", async () => {
    const spec = await renderOf(
      google_chat,
      {},
      { webhook_url: "https://chat.example.org/hook" },
      { body: LONG_BODY, links: { alert: "https://cp.example.com/alerts/1" } },
    );
    expect(spec.url).toBe("https://chat.example.org/hook?messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD");
    const text = String(jsonOf(spec).text);
    expect(byteLength(text)).toBeLessThanOrEqual(32000);
    expect(text.endsWith("<https://cp.example.com/alerts/1|Open the alert>")).toBe(true);
  });
});
