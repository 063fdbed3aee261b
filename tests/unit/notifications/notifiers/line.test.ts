// The line provider against its recorded fixture, tests/fixtures/notifications/line.json (support.ts).
import { describe, expect, it } from "vitest";
import { line } from "../../../../shared/domain/notifications/notifiers/line.ts";
import { DEFAULT_ALERT } from "../../../helpers/notification-fixtures.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(line);

describe("line render", () => {
  const render = (id: string, body = DEFAULT_ALERT.body, nowSecs = 1793613600) =>
    line.render({ config: { to: "U1" }, secrets: { channel_access_token: "t" }, message: { ...DEFAULT_ALERT, id, body }, nowSecs });

  it("gives every attempt of one delivery the same retry key (a UUID), and another delivery another", async () => {
    const first = (await render("alert_7_sink_3")).headers["x-line-retry-key"];
    const retry = (await render("alert_7_sink_3", DEFAULT_ALERT.body, 1793613900)).headers["x-line-retry-key"];
    const other = (await render("alert_8_sink_3")).headers["x-line-retry-key"];
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(retry).toBe(first);
    expect(other).not.toBe(first);
  });

  it("clips the text to LINE's 5000 characters", async () => {
    const spec = await render("m", "x".repeat(6000));
    const text = (JSON.parse(spec.body) as { messages: { text: string }[] }).messages[0]!.text;
    expect(text.length).toBe(5000);
    expect(spec.url).toBe("https://api.line.me/v2/bot/message/push");
  });
});
