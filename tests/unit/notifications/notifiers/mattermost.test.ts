// The mattermost provider against its recorded fixture, tests/fixtures/notifications/mattermost.json (support.ts).
import { describe, expect, it } from "vitest";
import { secretKeys } from "../../../../shared/domain/notifications/notifiers/index.ts";
import { jsonOf, LONG_BODY, renderOf } from "./render.ts";
import { mattermost } from "../../../../shared/domain/notifications/notifiers/mattermost.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(mattermost);

describe("mattermost provider", () => {
  const secrets = { webhook_url: "https://chat.example.org/hooks/abc" };

  it("keeps the webhook URL secret", () => {
    expect(secretKeys("mattermost")).toEqual(["webhook_url"]);
  });

  it("keeps a post within Mattermost's 16,383 characters", async () => {
    const body = jsonOf(await renderOf(mattermost, {}, secrets, { body: LONG_BODY, title: LONG_BODY }));
    const [attachment] = body.attachments as { text: string; fallback: string }[];
    expect(String(body.text).length + attachment!.text.length).toBeLessThanOrEqual(16383);
    expect(attachment!.fallback.length).toBeLessThanOrEqual(1000);
  });

  it("colours a recovery green whatever its severity", async () => {
    const body = jsonOf(await renderOf(mattermost, {}, secrets, { status: "resolved", severity: "critical" }));
    expect((body.attachments as { color: string }[])[0]!.color).toBe("#36a64f");
  });
});
