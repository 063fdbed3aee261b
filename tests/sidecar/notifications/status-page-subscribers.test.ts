// Status page subscribers (docs/adr/0458-status-page-subscribers.md) against the real things: the app, the
// delivery worker, a real SMTP server (smtp-server, STARTTLS) and a loopback webhook receiver. Double
// opt-in by the signed link in the e-mail and in the webhook's POST; the same 202 for a known address;
// noticeSubscribers queues one delivery per confirmed subscriber with its unsubscribe link (and the
// List-Unsubscribe headers); forged, expired and wrong-purpose tokens change nothing; the subscribe route
// is rate-limited per client; a webhook the outbound policy refuses is refused at subscribe and at send.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintSubscriptionToken } from "../../../shared/domain/status-pages/subscription-token.ts";
import { noticeSubscribers } from "../../../shared/verbs/status-pages/subscriber-notices.ts";
import { defineVerb } from "../../../shared/verbs/verb.ts";
import { type CaughtMail, type MailCatcher, startMailCatcher } from "../../helpers/mail-catcher.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { createHarness, type Harness, type Peer, startPeer } from "./support.ts";

const BASE = "https://status.example.net";
const SMTP_HOST = "127.0.0.42";
let h: Harness;
let smtp: MailCatcher;
let key: Uint8Array;
let pageId: number;
let peer: Peer;
let mails: CaughtMail[] = [];

// noticeSubscribers called directly (the e-mail case); the webhook case goes through a published incident.
const announce = defineVerb({ scope: "public" }, async (s, input: { pageId: number; subject: string; text: string; html?: string }) =>
  noticeSubscribers(s, { ...input, url: `${BASE}/status/home` }),
);

beforeAll(async () => {
  smtp = await startMailCatcher(SMTP_HOST);
  mails = smtp.mails;
  const smtpPort = smtp.port;
  h = await createHarness({ env: { PUBLIC_URL: BASE } });
  key = await h.t.runtime.deps.identity.signingKey(h.t.runtime.database.db);
  // Loopback receivers stand in for the internet here (a private address stays refused for subscribers).
  expect((await h.req("PUT", "settings", h.admin, { outbound_policy: { allow_private: true, allow_loopback: true } })).status).toBe(200);
  const s = await h.req("PATCH", "settings/smtp", h.admin, {
    smtp_enabled: true,
    smtp_host: SMTP_HOST,
    smtp_port: smtpPort,
    smtp_from_email: "status@example.net",
    smtp_verify_tls: false,
  });
  expect(s.status).toBe(200);
  const page = await h.req("POST", "status-pages", h.admin, { slug: "home", title: "Home services", published: true, sections: [] });
  expect(page.status).toBe(201);
  pageId = (await page.json()).id;
  expect((await h.req("POST", "status-pages", h.admin, { slug: "secret-draft", title: "Draft", sections: [] })).status).toBe(201);
  peer = await startPeer();
});
afterAll(async () => {
  await peer?.close();
  await h?.close();
  await smtp?.close();
});

const subscribeAs = (body: unknown, slug = "home") => h.req("POST", `status-pages/${slug}/subscribers`, undefined, body);
const HTML = { accept: "text/html" };
/** A link out of a (quoted-printable) mail body. */
const linkIn = (data: string, purpose: string) => {
  const flat = data.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const m = new RegExp(`${BASE}/api/v1/status-pages/subscriptions/${purpose}/[A-Za-z0-9._-]+`).exec(flat);
  expect(m, `a ${purpose} link in the mail`).not.toBeNull();
  return new URL(m![0]).pathname;
};
const subscriberRow = async (address: string) =>
  (
    await h.t.sql<
      { id: number; confirmed_at: Date | null }[]
    >`select id, confirmed_at from status_page_subscribers where address = ${address}`
  )[0];
const ctx = () => systemContext({ db: h.t.runtime.database.db, clock: h.clock, random: h.t.runtime.deps.random });

describe("status page subscribers", () => {
  it("e-mail: the same 202 twice, one confirmation, confirmed by its link, a notice with unsubscribe link and headers, then unsubscribed", async () => {
    const first = await subscribeAs({ email: "Reader@Example.org" });
    expect(first.status).toBe(202);
    const again = await subscribeAs({ email: "reader@example.org" });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual(await first.json());
    const confirmation = await h.until(async () => mails.find((m) => m.to.includes("reader@example.org")), "the confirmation mail");
    expect(confirmation.data).toContain("Subject: Confirm your subscription to Home services");
    const confirm = linkIn(confirmation.data, "confirm");
    expect((await subscriberRow("reader@example.org"))!.confirmed_at).toBeNull();

    // A mail scanner's GET confirms nothing; the page's button POSTs.
    const look = await h.req("GET", confirm, undefined, undefined, HTML);
    expect(look.status).toBe(200);
    expect(await look.text()).toContain(`<form method="post" action="${confirm}">`);
    expect((await subscriberRow("reader@example.org"))!.confirmed_at).toBeNull();
    const done = await h.req("POST", confirm);
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ state: "confirmed", kind: "email", page_title: "Home services" });
    expect((await subscriberRow("reader@example.org"))!.confirmed_at).not.toBeNull();

    // A confirmed address asked for again: the same answer, and nothing more is sent.
    const before = mails.length;
    expect((await subscribeAs({ email: "reader@example.org" })).status).toBe(202);

    const { queued } = await announce({
      ctx: ctx(),
      input: { pageId, subject: "Photos are down", text: "We are on it.", html: "<p>We are on it.</p>" },
    });
    expect(queued).toBe(1);
    const notice = await h.until(async () => mails.slice(before).find((m) => m.data.includes("Photos are down")), "the notice");
    expect(mails.length).toBe(before + 1);
    // (nodemailer folds the long header line)
    expect(notice.data).toMatch(
      /^List-Unsubscribe:\s+<https:\/\/status\.example\.net\/api\/v1\/status-pages\/subscriptions\/unsubscribe\/u\./m,
    );
    expect(notice.data).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(notice.data).toContain("text/html");
    const leave = linkIn(notice.data, "unsubscribe");

    // An unsubscribe GET shows a button; a mail client's RFC 8058 one-click POST removes the subscription.
    expect(await (await h.req("GET", leave, undefined, undefined, HTML)).text()).toContain(`<form method="post" action="${leave}">`);
    expect(await subscriberRow("reader@example.org")).toBeDefined();
    const gone = await h.t.app.request(leave, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-test-peer": "10.77.0.1" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(gone.status).toBe(200);
    expect((await gone.json()).state).toBe("removed");
    expect(await subscriberRow("reader@example.org")).toBeUndefined();
    expect((await (await h.req("POST", leave)).json()).state).toBe("removed");
    // Nothing is queued to an address that left.
    expect((await announce({ ctx: ctx(), input: { pageId, subject: "Back", text: "Fixed." } })).queued).toBe(0);
  });

  it("webhook: the confirmation POST carries the confirm link; the receiver confirms by POSTing it; notices follow", async () => {
    const url = `${peer.url}/hook`;
    expect((await subscribeAs({ webhook_url: url })).status).toBe(202);
    const r = await h.until(async () => peer.received.find((x) => x.body.includes("subscription_confirm")), "the webhook confirmation");
    const body = JSON.parse(r.body);
    expect(body.type).toBe("status_page.subscription_confirm");
    expect(body.data.confirm_url).toMatch(new RegExp(`^${BASE}/api/v1/status-pages/subscriptions/confirm/c\\.`));
    expect(body.data.confirm_url.endsWith(body.data.confirm_token)).toBe(true);
    expect((await h.req("POST", new URL(body.data.confirm_url).pathname)).status).toBe(200);

    // An incident published through the API tells the subscriber (after-change.ts), and so does its resolution.
    const created = await h.req("POST", `status-pages/${pageId}/incidents`, h.admin, {
      title: "Storage degraded",
      body: "Slow **writes**.",
      publish: true,
    });
    expect(created.status).toBe(201);
    const incidentId = (await created.json()).id;
    const n = await h.until(async () => peer.received.find((x) => x.body.includes("Storage degraded")), "the webhook notice");
    const notice = JSON.parse(n.body);
    expect(notice.type).toBe("status_page.notice");
    expect(notice.data).toMatchObject({
      title: "Home services: Storage degraded (New incident)",
      message: "New incident: Storage degraded\n\nSlow **writes**.",
      page: { title: "Home services" },
    });
    expect(notice.data.unsubscribe_url).toMatch(/\/subscriptions\/unsubscribe\/u\./);
    const resolved = await h.req("POST", `status-pages/${pageId}/incidents/${incidentId}/updates`, h.admin, {
      status: "resolved",
      body: "Fixed.",
    });
    expect(resolved.status).toBe(201);
    await h.until(async () => peer.received.find((x) => x.body.includes("Storage degraded (Resolved)")), "the resolution notice");
    // The attempt is recorded just after the receiver answered.
    await h.until(
      async () =>
        (
          await h.t.sql<
            { state: string }[]
          >`select state from notification_deliveries where subscriber_id is not null order by id desc limit 1`
        )[0]?.state === "delivered",
      "the notice recorded as delivered",
    );

    // The administrators' list shows it with its last delivery; a viewer may not read addresses.
    const list = await (await h.req("GET", `status-pages/${pageId}/subscribers?state=confirmed`, h.admin)).json();
    expect(list.items).toEqual([
      expect.objectContaining({ kind: "webhook", address: url, state: "confirmed", last_delivery_state: "delivered" }),
    ]);
    expect((await h.req("GET", `status-pages/${pageId}/subscribers`, h.viewer)).status).toBe(403);
    const del = await h.req("DELETE", `status-pages/${pageId}/subscribers/${list.items[0].id}`, h.admin);
    expect(del.status).toBe(204);
    const [audit] = await h.t.sql<
      { diff: Record<string, unknown> }[]
    >`select diff from audit_log where action = 'status_page.subscriber.delete'`;
    expect(JSON.stringify(audit!.diff)).not.toContain(url);
    expect((await h.req("DELETE", `status-pages/${pageId}/subscribers/${list.items[0].id}`, h.admin)).status).toBe(404);
  });

  it("a draft or unknown page is the page's 404; bad input is a 422 and changes nothing", async () => {
    for (const slug of ["secret-draft", "nope"]) {
      const res = await subscribeAs({ email: "x@example.org" }, slug);
      expect(res.status).toBe(404);
      expect((await res.json()).detail).toBe("No such status page.");
    }
    expect((await subscribeAs({ email: "not-an-address" })).status).toBe(422);
    expect((await subscribeAs({ email: "a@example.org", webhook_url: "https://example.org/x" })).status).toBe(422);
    expect((await subscribeAs({})).status).toBe(422);
    expect((await h.t.sql`select 1 from status_page_subscribers where address in ('x@example.org', 'a@example.org')`).length).toBe(0);
  });

  it("a webhook the outbound policy refuses: at subscribe (private, metadata) and at send (policy narrowed meanwhile)", async () => {
    for (const url of ["http://192.168.1.10/hook", "http://169.254.169.254/latest", "ftp://example.org/x"]) {
      const res = await subscribeAs({ webhook_url: url });
      expect(res.status).toBe(422);
      expect((await res.json()).fields.webhook_url).toBeTruthy();
    }
    const late = await startPeer();
    const url = `${late.url}/late`;
    expect((await h.req("PUT", "settings", h.admin, { outbound_policy: { allow_private: true, allow_loopback: false } })).status).toBe(200);
    // Saved while loopback was allowed: written straight in, as if the policy changed after the subscribe.
    await h.t
      .sql`insert into status_page_subscribers (page_id, kind, address, confirmed_at, confirm_sent_at) values (${pageId}, 'webhook', ${url}, now(), now())`;
    await announce({ ctx: ctx(), input: { pageId, subject: "Refused", text: "Never sent." } });
    const dead = await h.until(
      async () =>
        (
          await h.t.sql<{ state: string; last_error: string }[]>`select d.state, d.last_error from notification_deliveries d
            join status_page_subscribers s on s.id = d.subscriber_id where s.address = ${url} and d.state in ('retrying', 'dead')`
        )[0],
      "the refused delivery",
    );
    expect(dead.last_error).toMatch(/outbound policy/);
    expect(late.received).toHaveLength(0);
    await late.close();
    expect((await h.req("PUT", "settings", h.admin, { outbound_policy: { allow_private: true, allow_loopback: true } })).status).toBe(200);
  });

  it("forged, wrong-purpose and expired tokens: a clear refusal (page or envelope), nothing changed; invalid ones are throttled", async () => {
    await h.t
      .sql`insert into status_page_subscribers (page_id, kind, address, confirm_sent_at) values (${pageId}, 'email', 'late@example.org', now())`;
    const sub = (await subscriberRow("late@example.org"))!;
    const expired = mintSubscriptionToken(key, { purpose: "confirm", subscriber_id: sub.id, expires_at: new Date(Date.now() - 1000) });
    const res = await h.req("POST", `/api/v1/status-pages/subscriptions/confirm/${expired}`);
    expect(res.status).toBe(410);
    expect((await res.json()).reason).toBe("expired");
    const page = await h.req("GET", `/api/v1/status-pages/subscriptions/confirm/${expired}`, undefined, undefined, HTML);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("expired");
    const good = mintSubscriptionToken(key, { purpose: "confirm", subscriber_id: sub.id, expires_at: new Date(Date.now() + 60_000) });
    const forged = `${good.slice(0, -3)}${good.endsWith("AAA") ? "BBB" : "AAA"}`;
    const unsubAsConfirm = mintSubscriptionToken(key, { purpose: "unsubscribe", subscriber_id: sub.id, expires_at: null });
    const otherKey = mintSubscriptionToken(new Uint8Array(32).fill(7), { purpose: "unsubscribe", subscriber_id: sub.id, expires_at: null });
    for (const [purpose, token] of [
      ["confirm", forged],
      ["confirm", unsubAsConfirm],
      ["unsubscribe", otherKey],
      ["unsubscribe", "garbage"],
    ] as const) {
      const r = await h.req("POST", `/api/v1/status-pages/subscriptions/${purpose}/${token}`);
      expect(r.status).toBe(404);
      expect((await r.json()).reason).toBe("invalid");
    }
    expect((await subscriberRow("late@example.org"))!.confirmed_at).toBeNull();
    // Guessing from one client: 429 after the limit.
    let last = 0;
    for (let i = 0; i < 32; i++) {
      const r = await h.t.app.request(`/api/v1/status-pages/subscriptions/unsubscribe/u.${i}.0.${"A".repeat(43)}`, {
        method: "POST",
        headers: { "x-test-peer": "10.66.0.1" },
      });
      last = r.status;
    }
    expect(last).toBe(429);
  });

  it("subscribe requests are limited per client and say so with Retry-After", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await h.t.app.request("/api/v1/status-pages/home/subscribers", {
        method: "POST",
        headers: { "content-type": "application/json", "x-test-peer": "10.55.0.1" },
        body: JSON.stringify({ email: `many${i}@example.org` }),
      });
      statuses.push(r.status);
      if (r.status === 429) expect(r.headers.get("retry-after")).toMatch(/^\d+$/);
    }
    expect(statuses.slice(0, 10).every((s) => s === 202)).toBe(true);
    expect(statuses[10]).toBe(429);
    // Another client is not held back.
    expect((await subscribeAs({ email: "other@example.org" })).status).toBe(202);
  });

  it("pending subscriptions whose confirmation expired are pruned", async () => {
    await h.t
      .sql`insert into status_page_subscribers (page_id, kind, address, confirm_sent_at) values (${pageId}, 'email', 'stale@example.org', now() - interval '3 days')`;
    expect((await subscribeAs({ email: "fresh@example.org" })).status).toBe(202);
    expect(await subscriberRow("stale@example.org")).toBeUndefined();
  });
});
