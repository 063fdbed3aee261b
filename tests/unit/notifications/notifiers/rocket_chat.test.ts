// The rocket_chat provider against its recorded fixture, tests/fixtures/notifications/rocket_chat.json (support.ts).
import { describe, expect, it } from "vitest";
import { secretKeys } from "../../../../shared/domain/notifications/notifiers/index.ts";
import { jsonOf, LONG_BODY, renderOf } from "./render.ts";
import { rocket_chat } from "../../../../shared/domain/notifications/notifiers/rocket_chat.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(rocket_chat);

describe("rocket_chat provider", () => {
  const secrets = { webhook_url: "https://chat.example.org/hooks/id/token" };

  it("keeps the webhook URL secret", () => {
    expect(secretKeys("rocket_chat")).toEqual(["webhook_url"]);
  });

  it("keeps a message within Rocket.Chat's default 5,000 characters", async () => {
    const body = jsonOf(await renderOf(rocket_chat, {}, secrets, { body: LONG_BODY, title: LONG_BODY }));
    const [attachment] = body.attachments as { text: string }[];
    expect(String(body.text).length + attachment!.text.length).toBeLessThanOrEqual(5000);
  });
});
