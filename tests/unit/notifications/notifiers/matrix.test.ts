// The matrix provider against its recorded fixture, tests/fixtures/notifications/matrix.json (support.ts).
import { describe, expect, it } from "vitest";
import { secretKeys } from "../../../../shared/domain/notifications/notifiers/index.ts";
import { splitProviderConfig } from "../../../../shared/domain/notifications/notifier-config.ts";
import { byteLength } from "../../../../shared/domain/notifications/message-text.ts";
import { jsonOf, LONG_BODY, renderOf } from "./render.ts";
import { matrix } from "../../../../shared/domain/notifications/notifiers/matrix.ts";
import { providerFixtureTests } from "./support.ts";

providerFixtureTests(matrix);

describe("matrix provider", () => {
  const config = { base_url: "https://matrix.example.org", room_id: "!room:example.org" };
  const secrets = { access_token: "syt_x" };

  it("keeps the access token secret and needs the homeserver, token and room", () => {
    expect(secretKeys("matrix")).toEqual(["access_token"]);
    const { issues } = splitProviderConfig("matrix", {});
    expect(issues.map((i) => i.loc[2]).sort()).toEqual(["access_token", "base_url", "room_id"]);
  });

  it("sends a retried delivery under the same transaction ID, another alert under another", async () => {
    const first = await renderOf(matrix, config, secrets);
    const retry = await renderOf(matrix, config, secrets);
    const other = await renderOf(matrix, config, secrets, { id: "alert_44_sink_2" });
    expect(retry.url).toBe(first.url);
    expect(other.url).not.toBe(first.url);
    expect(first.method).toBe("PUT");
  });

  it("keeps the event under the homeserver's 65,536 bytes for any body", async () => {
    const spec = await renderOf(matrix, config, secrets, { body: `<&>"${LONG_BODY}` });
    expect(byteLength(spec.body)).toBeLessThan(65536);
    expect(String(jsonOf(spec).formatted_body)).toContain("&lt;&amp;&gt;&quot;");
  });
});
