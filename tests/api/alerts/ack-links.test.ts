// The signed acknowledge link (docs/adr/0447-acknowledgement.md), PUBLIC_URL set: a delivered message carries
// links.alert and links.acknowledge; GET on the link shows a page and changes nothing (chat apps prefetch);
// POST acknowledges as "link via <sink>", once. Forged, replayed, expired and resolved-incident tokens are
// refused with a clear error and nothing changes; invalid tokens are throttled per client.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACK_LINK_TTL_MS, mintAckToken } from "../../../shared/domain/notifications/ack-token.ts";
import { claimDeliveries } from "../../../shared/verbs/notifications/delivery-work.ts";
import { dispatchAlerts } from "../../../shared/verbs/notifications/dispatch-alerts.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { enqueue, systemOf } from "./support.ts";

const BASE = "https://cp.example.net";
let a: Actors;
let key: Uint8Array;
let sinkId: number;
beforeAll(async () => {
  a = await createActors({ PUBLIC_URL: `${BASE}/` });
  key = await a.t.runtime.deps.identity.signingKey(a.t.runtime.database.db);
  const sink = await (
    await a.req("POST", "notifications/sinks", a.admin, {
      name: "on-call hook",
      provider_type: "webhook",
      provider_config: { url: "http://127.0.0.1:9/hook" },
    })
  ).json();
  sinkId = sink.id;
  expect((await a.req("POST", "notifications/routes", a.admin, { sink_id: sink.id })).status).toBe(201);
});
afterAll(async () => a?.t.close());

const HTML = { accept: "text/html,application/xhtml+xml" };
const path = (link: string) => new URL(link).pathname;
const ackState = async (id: number) =>
  (await a.t.sql<{ acknowledged_by: string | null }[]>`select acknowledged_by from notification_alerts where id = ${id}`)[0]!
    .acknowledged_by;
const mint = (incident_id: number, expires_at = new Date(Date.now() + ACK_LINK_TTL_MS)) =>
  `/api/v1/ack/${mintAckToken(key, { incident_id, sink_id: sinkId, expires_at }, a.t.runtime.deps.random)}`;

/** The links of the message the worker would send for `alertId`. */
async function linksOf(alertId: number): Promise<{ alert?: string; acknowledge?: string }> {
  const ctx = systemOf(a);
  await dispatchAlerts({ ctx, input: { groupingDelayMs: 0, maxAttempts: 1 } });
  const { jobs } = await claimDeliveries({
    ctx,
    input: {
      limit: 50,
      leaseMs: 60_000,
      vault: a.t.runtime.deps.vault,
      links: { publicUrl: a.t.runtime.deps.config.PUBLIC_URL, signingKey: key },
    },
  });
  const job = jobs.find((j) => j.message.data.alert_id === alertId);
  expect(job).toBeDefined();
  return job!.message.links;
}

describe("acknowledge links", () => {
  it("a firing alert's message links to its page and to a single-use acknowledge link that GET does not use", async () => {
    const [opened] = await enqueue(a, { monitor_id: 601, title: "db-01 down" });
    const links = await linksOf(opened!);
    expect(links.alert).toBe(`${BASE}/alerts/${opened}`);
    expect(links.acknowledge).toMatch(new RegExp(`^${BASE}/api/v1/ack/${opened}\\.\\d+\\.${sinkId}\\.`));

    // A chat app's preview, then the person's browser: a page with a button, nothing acknowledged.
    for (const headers of [{}, HTML]) {
      const seen = await a.req("GET", path(links.acknowledge!), undefined, undefined, headers);
      expect(seen.status).toBe(200);
    }
    const page = await a.req("GET", path(links.acknowledge!), undefined, undefined, HTML);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
    const html = await page.text();
    expect(html).toContain("db-01 down");
    expect(html).toContain(`<form method="post" action="${path(links.acknowledge!)}">`);
    expect(await ackState(opened!)).toBeNull();

    const done = await a.req("POST", path(links.acknowledge!), undefined, undefined, HTML);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Acknowledged");
    expect(await ackState(opened!)).toBe("link via on-call hook");
    const [audit] = await a.t.sql<{ action: string; actor_email: string | null; diff: Record<string, unknown> }[]>`
      select action, actor_email, diff from audit_log where entity_type = 'notification_alert' and entity_id = ${String(opened)}`;
    expect(audit).toMatchObject({ action: "alert.acknowledge", actor_email: null, diff: { via: "link", sink_id: sinkId } });

    // Replayed: refused, as a page for a browser and as the error envelope for anything else.
    const replay = await a.req("POST", path(links.acknowledge!), undefined, undefined, HTML);
    expect(replay.status).toBe(409);
    expect(await replay.text()).toContain("already used");
    const replayJson = await a.req("POST", path(links.acknowledge!));
    expect(replayJson.status).toBe(409);
    expect(await replayJson.json()).toMatchObject({ reason: "used" });
  });

  it("an un-acknowledged incident can be acknowledged by another link; a recovery's message has no acknowledge link", async () => {
    const [opened] = await enqueue(a, { monitor_id: 602 });
    const link = mint(opened!);
    const res = await a.req("POST", link);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ incident_id: opened, acknowledged: true, acknowledged_by: "link via on-call hook" });
    expect((await a.req("DELETE", `alerts/${opened}/acknowledge`, a.admin)).status).toBe(200);
    expect((await a.req("POST", mint(opened!))).status).toBe(200);
    expect(await ackState(opened!)).toBe("link via on-call hook");
    const [recovery] = await enqueue(a, { kind: "monitor.up", monitor_id: 602, severity: "info" });
    const links = await linksOf(recovery!);
    expect(links).toEqual({ alert: `${BASE}/alerts/${opened}` });
  });

  it("refuses forged, expired and resolved-incident links, changing nothing", async () => {
    const [opened] = await enqueue(a, { monitor_id: 603 });
    const good = mint(opened!);
    const tampered = good.replace(/\/(\d+)\./, `/${opened! + 1000}.`);
    const otherKey = `/api/v1/ack/${mintAckToken(new Uint8Array(32).fill(7), { incident_id: opened!, sink_id: sinkId, expires_at: new Date(Date.now() + 60_000) }, a.t.runtime.deps.random)}`;
    for (const link of [tampered, otherKey, "/api/v1/ack/not-a-token", `${good.slice(0, -2)}AA`]) {
      for (const method of ["GET", "POST"]) {
        const res = await a.req(method, link);
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ reason: "invalid" });
      }
    }
    const expired = mint(opened!, new Date(Date.now() - 1000));
    for (const method of ["GET", "POST"]) {
      const res = await a.req(method, expired, undefined, undefined, HTML);
      expect(res.status).toBe(410);
      expect(await res.text()).toContain("expired");
    }
    expect(await ackState(opened!)).toBeNull();
    expect((await a.t.sql`select count(*)::int as n from notification_ack_nonces where incident_id = ${opened!}`)[0]!.n).toBe(0);

    await enqueue(a, { kind: "monitor.up", monitor_id: 603, severity: "info" });
    const late = await a.req("POST", good);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ reason: "resolved" });
    expect(await ackState(opened!)).toBeNull();
    // The link was not used up by the refusal.
    expect((await a.t.sql`select count(*)::int as n from notification_ack_nonces where incident_id = ${opened!}`)[0]!.n).toBe(0);
  });

  it("throttles invalid tokens per client with 429 and Retry-After", async () => {
    const send = () => a.t.app.request("/api/v1/ack/not-a-token", { method: "POST", headers: { "x-test-peer": "10.77.0.1" } });
    let last: Response | undefined;
    for (let i = 0; i < 40; i++) {
      last = await send();
      if (last.status === 429) break;
      expect(last.status).toBe(404);
    }
    expect(last!.status).toBe(429);
    expect(last!.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("needs no session, and a session's cookie without the CSRF header does not stop the link's POST", async () => {
    const [opened] = await enqueue(a, { monitor_id: 604 });
    const res = await a.req("POST", mint(opened!), undefined, undefined, { cookie: "svc_session=whatever" });
    expect(res.status).toBe(200);
  });
});
