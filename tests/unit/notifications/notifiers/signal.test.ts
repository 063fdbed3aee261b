// The signal provider against its recorded fixture, tests/fixtures/notifications/signal.json (support.ts).
import { describe, expect, it } from "vitest";
import { secretKeys } from "../../../../shared/domain/notifications/notifiers/index.ts";
import { splitProviderConfig } from "../../../../shared/domain/notifications/notifier-config.ts";
import { jsonOf, LONG_BODY, renderOf } from "./render.ts";
import { signal } from "../../../../shared/domain/notifications/notifiers/signal.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(signal);

describe("signal provider", () => {
  const config = { base_url: "http://signal-api:8080", number: "+4915112345678", recipients: "+4917612345678" };

  it("has no secret of its own and needs the server, sender and recipients", () => {
    expect(secretKeys("signal")).toEqual([]);
    const { issues } = splitProviderConfig("signal", {});
    expect(issues.map((i) => i.loc[2]).sort()).toEqual(["base_url", "number", "recipients"]);
  });

  it("keeps the message inline (2,000 characters), link included", async () => {
    const message = String(
      jsonOf(await renderOf(signal, config, {}, { body: LONG_BODY, links: { alert: "https://cp.example.com/alerts/1" } })).message,
    );
    expect(message.length).toBeLessThanOrEqual(2000);
    expect(message.endsWith("Open the alert: https://cp.example.com/alerts/1")).toBe(true);
  });
});
