// A paging provider end to end (docs/adr/0442-alert-lifecycle.md, 0443-paging-providers.md): a monitor's
// failure and its recovery, enqueued as the monitor runner does and sent by the real delivery worker to a
// PagerDuty-shaped receiver on loopback, trigger and then resolve the same dedup_key; a failure after the
// recovery is a new incident, so it triggers under a new key.
import { afterAll, beforeAll, expect, it } from "vitest";
import { readFixture } from "../../helpers/notification-fixtures.ts";
import { createHarness, type Harness, startPeer } from "./support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const ROUTING_KEY = "e93facc04764012d7bfb002500d5d1a6";

it("pagerduty: a recovery resolves the incident its failure triggered; the next failure triggers anew", async () => {
  // PagerDuty's recorded answer (tests/fixtures/notifications/pagerduty.json).
  const answer = readFixture("pagerduty").cases[0]!.response!;
  const peer = await startPeer(() => answer);
  const sink = await h.sink("pagerduty", { base_url: peer.url, routing_key: ROUTING_KEY }, { event_kinds: ["monitor.down", "monitor.up"] });
  const monitor_id = 4242;
  // One alert at a time, each sent before the next is enqueued: the order PagerDuty hears them in is the test.
  const sent = (n: number) =>
    h.until(
      async () => peer.received.length >= n && peer.received.map((r) => JSON.parse(r.body) as Record<string, unknown>),
      `${n} events`,
    );

  await h.enqueue({ kind: "monitor.down", monitor_id, title: "web-1 is down" });
  const [trigger] = await sent(1);
  await h.enqueue({ kind: "monitor.up", monitor_id, severity: "info", title: "web-1 is up again", body: "web-1 recovered" });
  const [, resolve] = await sent(2);
  await h.enqueue({ kind: "monitor.down", monitor_id, title: "web-1 is down" });
  const [, , again] = await sent(3);

  expect(peer.received.map((r) => [r.method, r.url])).toEqual(Array(3).fill(["POST", "/v2/enqueue"]));
  expect(trigger).toMatchObject({
    routing_key: ROUTING_KEY,
    event_action: "trigger",
    payload: { summary: "web-1 is down", severity: "critical" },
  });
  expect(trigger!.dedup_key).toMatch(/^ctl-incident-\d+$/);
  expect(resolve).toEqual({ routing_key: ROUTING_KEY, event_action: "resolve", dedup_key: trigger!.dedup_key });
  expect(again).toMatchObject({ event_action: "trigger", payload: { summary: "web-1 is down" } });
  expect(again!.dedup_key).toMatch(/^ctl-incident-\d+$/);
  expect(again!.dedup_key).not.toBe(trigger!.dedup_key);

  const deliveries = await h.until(async () => {
    const list = (await (await h.req("GET", `notifications/deliveries?sink_id=${sink.id}`, h.admin)).json()).items as { state: string }[];
    return list.length === 3 && list.every((d) => d.state === "delivered") && list;
  }, "three delivered");
  expect(deliveries).toHaveLength(3);
  await peer.close();
});
