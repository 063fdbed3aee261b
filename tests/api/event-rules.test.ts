// Event rules end to end (docs/event-rules.md): the API on real PostgreSQL, the delivery worker on the
// app's runtime, and a loopback receiver that verifies the Standard Webhooks signature of each change it
// gets, with its before/after and actor; filters that do not match, a rolled-back change, the dead letter
// and its replay, and the 422s that change nothing.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, type Peer, startPeer } from "../sidecar/notifications/support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** Standard Webhooks verification as a receiver does it (the key is the base64 after whsec_). */
function verified(secret: string, headers: Record<string, unknown>, body: string): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`).digest("base64");
  return String(headers["webhook-signature"]).split(" ").includes(`v1,${expected}`);
}

async function webhook(peer: Peer): Promise<{ id: number; secret: string }> {
  const res = await h.req("POST", "notifications/sinks", h.admin, {
    name: `hook-${Math.random()}`,
    provider_type: "webhook",
    provider_config: { url: peer.url },
  });
  expect(res.status).toBe(201);
  return res.json();
}

async function rule(body: Record<string, unknown>): Promise<{ id: number }> {
  const res = await h.req("POST", "event-rules", h.admin, { name: `rule-${Math.random()}`, ...body });
  expect(res.status).toBe(201);
  return res.json();
}

const eventDeliveries = async (query: string) => (await (await h.req("GET", `event-rules/deliveries?${query}`, h.admin)).json()).items;
const count = async (ruleIds: number[]) =>
  Number((await h.t.sql`select count(*)::int as n from notification_deliveries where event_rule_id = any(${ruleIds})`)[0]!.n);

describe("event rules", () => {
  it("sends a signed change with before, after and actor for hardware and services", async () => {
    const peer = await startPeer();
    const sink = await webhook(peer);
    const r = await rule({ kinds: ["hardware", "service"], actions: ["created", "updated", "deleted"], sink_ids: [sink.id] });

    const hw = await (await h.req("POST", "hardware", h.admin, { name: "ev-node-1" })).json();
    const patched = await h.req("PATCH", `hardware/${hw.id}`, h.admin, { name: "ev-node-2" });
    expect(patched.status).toBe(200);
    expect((await h.req("DELETE", `hardware/${hw.id}`, h.admin)).status).toBe(204);
    const svc = await (await h.req("POST", "services", h.admin, { name: "ev-svc" })).json();

    await h.until(async () => peer.received.length >= 4, "four changes");
    const bodies = peer.received.map((x) => {
      expect(verified(sink.secret, x.headers, x.body)).toBe(true);
      expect(x.headers["webhook-id"]).toMatch(/^event_\d+$/);
      return JSON.parse(x.body);
    });
    const byEvent = (kind: string, event: string) => bodies.find((b) => b.kind === kind && b.event === event);
    const created = byEvent("hardware", "created");
    expect(created).toMatchObject({ id: hw.id, rule: { id: r.id }, data: { id: hw.id, name: "ev-node-1" } });
    expect(created.snapshots).toMatchObject({ prechange: null, postchange: { name: "ev-node-1" } });
    expect(created.actor).toMatchObject({ type: "session", email: expect.stringContaining("@") });
    expect(typeof created.timestamp).toBe("string");
    const updated = byEvent("hardware", "updated");
    expect(updated.snapshots).toMatchObject({ prechange: { name: "ev-node-1" }, postchange: { name: "ev-node-2" } });
    const deleted = byEvent("hardware", "deleted");
    expect(deleted).toMatchObject({ data: { name: "ev-node-2" }, snapshots: { prechange: { name: "ev-node-2" }, postchange: null } });
    expect(byEvent("service", "created")).toMatchObject({ id: svc.id, data: { name: "ev-svc" } });

    // The receiver has a request a moment before the worker records its attempt.
    const listed = await h.until(async () => {
      const list = await eventDeliveries(`rule_id=${r.id}`);
      return list.every((d: { state: string }) => d.state === "delivered") && list;
    }, "four delivered");
    expect(listed).toHaveLength(4);
    expect(listed.every((d: { attempts: unknown[] }) => d.attempts.length === 1)).toBe(true);
    await h.req("PATCH", `event-rules/${r.id}`, h.admin, { enabled: false });
    await peer.close();
  });

  it("sends nothing when the tag, site or field condition does not match, and sends what does", async () => {
    const peer = await startPeer();
    const sink = await webhook(peer);
    const site = await (await h.req("POST", "sites", h.admin, { name: `ev-site-${Math.random()}` })).json();
    const other = await (await h.req("POST", "sites", h.admin, { name: `ev-site-${Math.random()}` })).json();
    const byTag = await rule({ kinds: ["hardware"], actions: ["created"], tag: "dns", sink_ids: [sink.id] });
    const bySite = await rule({ kinds: ["hardware"], actions: ["created"], site_id: site.id, sink_ids: [sink.id] });
    const byField = await rule({
      kinds: ["hardware"],
      actions: ["created"],
      condition: { field: "name", op: "contains", value: "web" },
      sink_ids: [sink.id],
    });
    const ruleIds = [byTag.id, bySite.id, byField.id];
    expect((await h.req("POST", "hardware", h.admin, { name: "ev-db-1", tags: ["wiki"], site_id: other.id })).status).toBe(201);
    expect(await count(ruleIds)).toBe(0);

    const match = await (await h.req("POST", "hardware", h.admin, { name: "ev-web-1", tags: ["dns"], site_id: site.id })).json();
    await h.until(async () => peer.received.length >= 3, "the three matching rules");
    const rules = peer.received.map((x) => JSON.parse(x.body)).map((b) => (expect(b.id).toBe(match.id), b.rule.id));
    expect(rules.sort()).toEqual([byTag.id, bySite.id, byField.id].sort());
    for (const id of rules) await h.req("PATCH", `event-rules/${id}`, h.admin, { enabled: false });
    await peer.close();
  });

  it("sends nothing for a change that rolls back", async () => {
    const peer = await startPeer();
    const sink = await webhook(peer);
    const r = await rule({ kinds: ["hardware"], actions: ["updated"], sink_ids: [sink.id] });
    const hw = await (await h.req("POST", "hardware", h.admin, { name: "ev-rollback" })).json();
    // The second id names nothing: the bulk update refuses as a whole, the first record's write rolled back.
    const res = await h.req("POST", "hardware/bulk-update", h.admin, { ids: [hw.id, 2_000_000_000], set: { notes: "changed" } });
    expect(res.status).toBe(422);
    expect(await count([r.id])).toBe(0);
    // A bulk update that commits sends one event per record.
    const hw2 = await (await h.req("POST", "hardware", h.admin, { name: "ev-rollback-2" })).json();
    expect((await h.req("POST", "hardware/bulk-update", h.admin, { ids: [hw.id, hw2.id], set: { notes: "changed" } })).status).toBe(200);
    await h.until(async () => peer.received.length >= 2, "one event per record");
    expect(peer.received.map((x) => JSON.parse(x.body).id).sort()).toEqual([hw.id, hw2.id].sort());
    await h.req("PATCH", `event-rules/${r.id}`, h.admin, { enabled: false });
    await peer.close();
  });

  it("retries a failing receiver, dead-letters, and sends again on replay", async () => {
    let failing = true;
    const peer = await startPeer(() => ({ status: failing ? 503 : 200 }));
    const sink = await webhook(peer);
    const r = await rule({ kinds: ["site"], actions: ["created"], sink_ids: [sink.id] });
    await h.req("POST", "sites", h.admin, { name: `ev-dead-${Math.random()}` });
    const [dead] = await h.until(async () => {
      const list = await eventDeliveries(`rule_id=${r.id}`);
      return list[0]?.state === "dead" && list;
    }, "the dead letter");
    expect(dead.attempts.length).toBe(dead.max_attempts);
    expect(peer.received).toHaveLength(dead.max_attempts);
    failing = false;
    const replay = await h.req("POST", `event-rules/deliveries/${dead.id}/replay`, h.admin);
    expect(replay.status).toBe(200);
    await h.until(async () => (await eventDeliveries(`rule_id=${r.id}`))[0]?.state === "delivered", "the replay");
    const last = peer.received.at(-1)!;
    expect(last.headers["webhook-id"]).toBe(peer.received[0]!.headers["webhook-id"]);
    expect(verified(sink.secret, last.headers, last.body)).toBe(true);
    await h.req("PATCH", `event-rules/${r.id}`, h.admin, { enabled: false });
    await peer.close();
  });
});

describe("event rule writes", () => {
  it("answers 201 with an ETag, honours If-Match, lists, and deletes", async () => {
    const peer = await startPeer();
    const sink = await webhook(peer);
    const res = await h.req("POST", "event-rules", h.admin, {
      name: "crud-rule",
      kinds: ["hardware"],
      actions: ["created"],
      sink_ids: [sink.id],
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("etag")).toBe('W/"1"');
    const created = await res.json();
    expect(created).toMatchObject({ enabled: true, tag: null, site_id: null, condition: null, sink_ids: [sink.id] });
    expect((await h.req("PATCH", `event-rules/${created.id}`, h.admin, { enabled: false }, { "If-Match": 'W/"7"' })).status).toBe(412);
    const list = await (await h.req("GET", `event-rules?sink_id=${sink.id}`, h.admin)).json();
    expect(list.items.map((x: { id: number }) => x.id)).toEqual([created.id]);
    expect((await h.req("GET", "event-rules", h.viewer)).status).toBe(403);
    expect((await h.req("DELETE", `event-rules/${created.id}`, h.admin)).status).toBe(204);
    await peer.close();
  });

  it("refuses an unknown kind, action or field, and a sink that is not a webhook, with nothing changed", async () => {
    const peer = await startPeer();
    const sink = await webhook(peer);
    const slack = await h.req("POST", "notifications/sinks", h.admin, {
      name: "not-a-webhook",
      provider_type: "slack",
      provider_config: { webhook_url: `${peer.url}/slack` },
    });
    expect(slack.status).toBe(201);
    const slackId = (await slack.json()).id;
    const good = { name: "bad-rule", kinds: ["hardware"], actions: ["created"], sink_ids: [sink.id] };
    const before = Number((await h.t.sql`select count(*)::int as n from event_rules`)[0]!.n);
    const cases: [Record<string, unknown>, string][] = [
      [{ kinds: ["spaceship"] }, "kinds"],
      [{ actions: ["renamed"] }, "actions"],
      [{ condition: { field: "colour", op: "eq", value: "red" } }, "condition"],
      [{ sink_ids: [slackId] }, "sink_ids"],
      [{ sink_ids: [999_999] }, "sink_ids"],
    ];
    for (const [change, field] of cases) {
      const res = await h.req("POST", "event-rules", h.admin, { ...good, ...change });
      expect(res.status, JSON.stringify(change)).toBe(422);
      const body = await res.json();
      expect(body.error_code).toBe("VALIDATION_ERROR");
      expect(body.detail.map((i: { loc: unknown[] }) => i.loc[1])).toContain(field);
    }
    expect(Number((await h.t.sql`select count(*)::int as n from event_rules`)[0]!.n)).toBe(before);
    await peer.close();
  });
});
