// A sink's message templates reach the receiver: the delivery worker builds the message with the sink's
// title and body templates applied (the monitor's name looked up), whichever provider sends it; the
// generic HTTP request provider sends its own body template with the values JSON-escaped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, startPeer } from "./support.ts";

let h: Harness;
let monitorId: number;
beforeAll(async () => {
  h = await createHarness();
  const [m] = await h.t.sql<{ id: number }[]>`insert into monitors (name, check_type, host, status, last_polled_at)
    values ('web-1', 'http', 'https://web-1.example/health', 'down', now()) returning id`;
  monitorId = m!.id;
});
afterAll(async () => h?.close());

const delivered = (sinkId: number) => async () =>
  (await (await h.req("GET", `notifications/deliveries?sink_id=${sinkId}`, h.admin)).json()).items[0]?.state === "delivered";

describe("templated sinks", () => {
  it("a gotify sink sends its rendered title and body", async () => {
    const peer = await startPeer();
    const sink = await h.sink(
      "gotify",
      {
        base_url: peer.url,
        token: "AppTokenX",
        title_template: "[{{severity}}] {{monitor.name}} ({{monitor.check_type}})",
        body_template: "{{message}} & more at {{monitor.host}}",
      },
      { event_kinds: ["lab.tpl"] },
    );
    await h.enqueue({ kind: "lab.tpl", monitor_id: monitorId, detail: { msg: 'refused "GET /health"' } });
    await h.until(delivered(sink.id), "templated gotify delivery");
    expect(peer.received).toHaveLength(1);
    const sent = JSON.parse(peer.received[0]!.body);
    expect(sent.title).toBe("[critical] web-1 (http)");
    // No HTML escaping: the receiver gets the quotes and the ampersand as they are.
    expect(sent.message).toBe('refused "GET /health" & more at https://web-1.example/health');
    await peer.close();
  });

  it("an http_request sink sends its JSON body template, valid JSON whatever the message holds", async () => {
    const peer = await startPeer();
    const sink = await h.sink(
      "http_request",
      {
        url: `${peer.url}/incoming`,
        headers: "Authorization: Bearer tok-1",
        title_template: "{{monitor.name}} is {{status}}",
        request_body: '{"summary": "{{title}}", "detail": "{{message}}", "monitor": {{monitor.id}}}',
      },
      { event_kinds: ["lab.tplhttp"] },
    );
    await h.enqueue({ kind: "lab.tplhttp", monitor_id: monitorId, detail: { msg: 'said "no"\nand closed' } });
    await h.until(delivered(sink.id), "http_request delivery");
    const r = peer.received[0]!;
    expect(r.method).toBe("POST");
    expect(r.url).toBe("/incoming");
    expect(r.headers.authorization).toBe("Bearer tok-1");
    expect(JSON.parse(r.body)).toEqual({ summary: "web-1 is event", detail: 'said "no"\nand closed', monitor: monitorId });
    await peer.close();
  });
});
