// The delivery worker with PUBLIC_URL set (docs/adr/0447-acknowledgement.md): a webhook receives the alert's
// console link and a signed acknowledge link, and POSTing that link acknowledges the incident once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, startPeer } from "./support.ts";

const BASE = "https://cp.example.net";
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { PUBLIC_URL: BASE } });
});
afterAll(async () => h?.close());

describe("acknowledge links in delivered messages", () => {
  it("a webhook gets data.links; the acknowledge link acknowledges its incident once", async () => {
    const peer = await startPeer();
    await h.sink("webhook", { url: `${peer.url}/hook` }, { event_kinds: ["monitor.down"] });
    await h.enqueue({ kind: "monitor.down", monitor_id: 9001, title: "api down" });
    const r = await h.until(async () => peer.received[0], "the webhook's delivery");
    const links = JSON.parse(r.body).data.links as { alert: string; acknowledge: string };
    const [incident] = await h.t.sql<{ id: number }[]>`select id::int as id from notification_alerts where monitor_id = 9001`;
    expect(links.alert).toBe(`${BASE}/alerts/${incident!.id}`);
    const ack = new URL(links.acknowledge);
    expect(ack.origin).toBe(BASE);
    // The message text carries it too, for the channels that show only text.
    expect(JSON.parse(r.body).data.message as string).toMatch(/\n\nAcknowledge: \S+$/);
    expect((JSON.parse(r.body).data.message as string).endsWith(`Acknowledge: ${links.acknowledge}`)).toBe(true);
    expect((await h.req("GET", ack.pathname)).status).toBe(200);
    expect((await h.t.sql`select acknowledged_at from notification_alerts where id = ${incident!.id}`)[0]!.acknowledged_at).toBeNull();
    const done = await h.req("POST", ack.pathname);
    expect(done.status).toBe(200);
    expect((await done.json()).acknowledged_by).toMatch(/^link via webhook-/);
    expect((await h.req("POST", ack.pathname)).status).toBe(409);
    await peer.close();
  });
});
