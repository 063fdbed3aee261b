// The home_assistant provider against its recorded fixture, tests/fixtures/notifications/home_assistant.json (support.ts).
import { describe, expect, it } from "vitest";
import { secretKeys } from "../../../../shared/domain/notifications/notifiers/index.ts";
import { splitProviderConfig } from "../../../../shared/domain/notifications/notifier-config.ts";
import { byteLength } from "../../../../shared/domain/notifications/message-text.ts";
import { jsonOf, LONG_BODY, renderOf } from "./render.ts";
import { home_assistant } from "../../../../shared/domain/notifications/notifiers/home_assistant.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(home_assistant);

describe("home_assistant provider", () => {
  const config = { base_url: "http://ha.local:8123", service: "mobile_app_pixel_8" };
  const secrets = { token: "t" };

  it("keeps the access token secret and needs the server, token and service", () => {
    expect(secretKeys("home_assistant")).toEqual(["token"]);
    const { issues } = splitProviderConfig("home_assistant", {});
    expect(issues.map((i) => i.loc[2]).sort()).toEqual(["base_url", "service", "token"]);
  });

  it("sends a recovery quietly under its alert's tag, even when the alert was critical", async () => {
    const firing = jsonOf(await renderOf(home_assistant, config, secrets)).data as Record<string, unknown>;
    const over = jsonOf(await renderOf(home_assistant, config, secrets, { status: "resolved", severity: "critical" })).data as Record<
      string,
      unknown
    >;
    expect(over.tag).toBe(firing.tag);
    expect(over).toEqual({ tag: firing.tag, push: { "interruption-level": "passive" } });
  });

  it("keeps the message within the push payload and escapes the service name in the path", async () => {
    const spec = await renderOf(home_assistant, { ...config, service: "a/../b" }, secrets, { body: LONG_BODY });
    expect(new URL(spec.url).pathname).toBe("/api/services/notify/a%2F..%2Fb");
    expect(byteLength(String(jsonOf(spec).message))).toBeLessThanOrEqual(3000);
  });
});
