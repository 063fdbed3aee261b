// A receiver that never answers holds only its own sink's slots (docs/adr/0452): with 8 sends in flight
// at most and 2 per sink, ten alerts routed to a hanging sink and to a healthy one are all delivered to
// the healthy one while the hanging one has exactly its 2 requests open.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHarness, type Harness, type Peer, startPeer } from "./support.ts";

let h: Harness;
let hanging: Peer;
let healthy: Peer;
beforeAll(async () => {
  // The hanging sends outlast the wait below (bounded at 10 s), so none is retried meanwhile.
  h = await createHarness({ timeoutMs: 30_000, perSinkConcurrency: 2 });
  hanging = await startPeer(() => "hang");
  healthy = await startPeer();
});
afterAll(async () => {
  // The receivers first: closing the hanging one ends its sends, which the worker's stop waits for.
  await hanging?.close();
  await healthy?.close();
  await h?.close();
});

it("delivers to a healthy sink while another sink's receiver hangs", async () => {
  const kinds = { event_kinds: ["lab.fairness"] };
  await h.sink("webhook", { url: `${hanging.url}/hook` }, kinds);
  const good = await h.sink("webhook", { url: `${healthy.url}/hook` }, kinds);
  await h.enqueue(...Array.from({ length: 10 }, (_, i) => ({ kind: "lab.fairness", title: `Alert ${i}` })));
  await h.until(async () => healthy.received.length === 10, "ten deliveries to the healthy sink");
  // A receiver has its message before the attempt is committed (the attempts are group-committed after
  // the answers: adr/0462), so the states are awaited too.
  const states = async () => {
    const res = await h.req("GET", `notifications/deliveries?sink_id=${good.id}`, h.admin);
    return ((await res.json()).items as { state: string }[]).map((d) => d.state);
  };
  await h.until(async () => (await states()).every((s) => s === "delivered"), "the healthy sink's attempts committed");
  expect(hanging.received).toHaveLength(2);
  expect(healthy.received).toHaveLength(10);
  expect(await states()).toEqual(Array(10).fill("delivered"));
});
