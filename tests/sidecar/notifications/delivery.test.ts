// The delivery worker against real peers on loopback: a webhook receiver verifying both signatures,
// retries with the attempts recorded, the dead letter and its replay, the chat services' recorded formats,
// an SMTP server with STARTTLS, routing by severity and inventory scope, and once per sink.
import { createHmac } from "node:crypto";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFixture } from "../../helpers/notification-fixtures.ts";
import { createHarness, type Harness, startPeer } from "./support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ timeoutMs: 300, maxAttempts: 4 });
});
afterAll(async () => h?.close());

const deliveries = async (sinkId: number) =>
  (await (await h.req("GET", `notifications/deliveries?sink_id=${sinkId}`, h.admin)).json()).items;

/** Standard Webhooks verification as a receiver does it (the key is the base64 after whsec_). */
function verifyStandard(secret: string, headers: Record<string, unknown>, body: string): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`).digest("base64");
  return String(headers["webhook-signature"]).split(" ").includes(`v1,${expected}`);
}

describe("webhook", () => {
  it("signs with Standard Webhooks and X-Hub-Signature-256", async () => {
    const peer = await startPeer();
    const sink = await h.sink("webhook", { url: `${peer.url}/hook` }, { event_kinds: ["lab.webhook"] });
    await h.enqueue({ kind: "lab.webhook", title: "Webhook test" });
    const [d] = await h.until(
      async () => (await deliveries(sink.id)).filter((x: { state: string }) => x.state === "delivered").length === 1 && deliveries(sink.id),
      "delivery",
    );
    expect(peer.received).toHaveLength(1);
    const r = peer.received[0]!;
    expect(verifyStandard(sink.secret!, r.headers, r.body)).toBe(true);
    expect(r.headers["x-hub-signature-256"]).toBe(`sha256=${createHmac("sha256", sink.secret!).update(r.body).digest("hex")}`);
    expect(JSON.parse(r.body)).toMatchObject({ type: "lab.webhook", data: { title: "Webhook test", severity: "critical" } });
    expect(verifyStandard(sink.secret!, r.headers, `${r.body} `)).toBe(false);
    expect(d.attempts).toHaveLength(1);
    await peer.close();
  });

  it("delivers once after three 500s, with every attempt recorded", async () => {
    const peer = await startPeer((n) => ({ status: n < 3 ? 500 : 200 }));
    const sink = await h.sink("webhook", { url: peer.url, secret: "whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=" }, { event_kinds: ["lab.retry"] });
    await h.enqueue({ kind: "lab.retry" });
    const [d] = await h.until(async () => {
      const list = await deliveries(sink.id);
      return list[0]?.state === "delivered" && list;
    }, "delivered after retries");
    expect(peer.received).toHaveLength(4);
    expect(d.attempt_count).toBe(4);
    expect(d.attempts.map((x: { outcome: string; http_status: number }) => [x.outcome, x.http_status])).toEqual([
      ["failed", 500],
      ["failed", 500],
      ["failed", 500],
      ["delivered", 200],
    ]);
    await peer.close();
  });

  it("ends a never-answering sink in the dead letter, and a replay delivers", async () => {
    let answering = false;
    const peer = await startPeer(() => (answering ? { status: 200 } : "hang"));
    const sink = await h.sink("webhook", { url: peer.url }, { event_kinds: ["lab.dead"] });
    await h.enqueue({ kind: "lab.dead" });
    const [dead] = await h.until(async () => {
      const list = await deliveries(sink.id);
      return list[0]?.state === "dead" && list;
    }, "dead letter");
    expect(dead.attempts).toHaveLength(4);
    expect(dead.attempts.every((x: { outcome: string }) => x.outcome === "timeout")).toBe(true);
    const listed = await (await h.req("GET", "notifications/deliveries?state=dead", h.admin)).json();
    expect(listed.items.map((x: { id: number }) => x.id)).toContain(dead.id);
    answering = true;
    const replay = await h.req("POST", `notifications/deliveries/${dead.id}/replay`, h.admin);
    expect(replay.status).toBe(200);
    expect((await replay.json()).state).toBe("pending");
    const [done] = await h.until(async () => {
      const list = await deliveries(sink.id);
      return list[0]?.state === "delivered" && list;
    }, "replayed delivery");
    expect(done.attempts.at(-1).outcome).toBe("delivered");
    expect((await h.req("POST", `notifications/deliveries/${dead.id}/replay`, h.admin)).status).toBe(200);
    await peer.close();
  });
});

describe("chat services", () => {
  // Each provider's first recorded case (tests/fixtures/notifications/<type>.json), here end to end:
  // through the API, the vault, the queue and the worker.
  const keysOf = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(keysOf)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, keysOf(x)]))
        : typeof v;

  for (const provider of ["slack", "discord", "teams", "ntfy", "gotify", "telegram"]) {
    it(`${provider}: sends its documented format and accepts its recorded answer`, async () => {
      const c = readFixture(provider).cases[0]!;
      const f = { path: c.request!.path, request: c.request!.body, response: c.response! };
      const peer = await startPeer(() => f.response);
      const config: Record<string, Record<string, unknown>> = {
        slack: { webhook_url: `${peer.url}${f.path}` },
        discord: { webhook_url: `${peer.url}${f.path}` },
        teams: { webhook_url: `${peer.url}${f.path}` },
        ntfy: { base_url: peer.url, topic: "alerts", token: "tk_secret" },
        gotify: { base_url: peer.url, token: "AppTokenX" },
        telegram: { base_url: peer.url, bot_token: "123456:ABC-DEF", chat_id: "-1001234567890" },
      };
      const sink = await h.sink(provider, config[provider]!, { event_kinds: [`lab.${provider}`] });
      await h.enqueue({ kind: `lab.${provider}` });
      await h.until(async () => (await deliveries(sink.id))[0]?.state === "delivered", `${provider} delivery`);
      const r = peer.received[0]!;
      expect(r.url).toBe(f.path);
      expect(r.headers["content-type"]).toBe("application/json");
      const sent = JSON.parse(r.body);
      if (provider === "ntfy") {
        expect(r.headers.authorization).toBe("Bearer tk_secret");
        expect(sent.tags[1]).toBe(`lab.${provider}`);
        sent.tags[1] = "monitor.down";
      }
      if (provider === "gotify") expect(r.headers["x-gotify-key"]).toBe("AppTokenX");
      expect(keysOf(sent)).toEqual(keysOf(f.request));
      if (provider !== "ntfy") expect(sent).toEqual(f.request);
      await peer.close();
    });
  }

  it("telegram: a 200 without ok is a failure", async () => {
    const peer = await startPeer(() => ({
      status: 200,
      contentType: "application/json",
      body: '{"ok":false,"description":"chat not found"}',
    }));
    const sink = await h.sink("telegram", { base_url: peer.url, bot_token: "1:x", chat_id: "1" }, { event_kinds: ["lab.tgfail"] });
    await h.enqueue({ kind: "lab.tgfail" });
    const [d] = await h.until(async () => {
      const list = await deliveries(sink.id);
      return list[0]?.attempts.length > 0 && list;
    }, "telegram attempt");
    expect(d.attempts[0].outcome).toBe("failed");
    expect(d.last_error).not.toContain("chat not found");
    await peer.close();
  });
});

describe("email", () => {
  it("sends through SMTP with STARTTLS", async () => {
    const messages: { from: string; to: string[]; data: string; secure: boolean; user?: string }[] = [];
    const server = new SMTPServer({
      // smtp-server's built-in self-signed certificate serves STARTTLS.
      authOptional: false,
      onAuth(auth, session, cb) {
        if (!session.secure) return cb(new Error("auth before STARTTLS"));
        cb(null, auth.username === "mailer" && auth.password === "smtp-pass" ? { user: "mailer" } : undefined);
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          messages.push({
            from: String(session.envelope.mailFrom ? session.envelope.mailFrom.address : false),
            to: session.envelope.rcptTo.map((r) => r.address),
            data: Buffer.concat(chunks).toString(),
            secure: session.secure,
            user: String(session.user),
          });
          cb();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.server.address() as AddressInfo).port;
    const sink = await h.sink(
      "email",
      {
        to: "ops@example.com",
        from_email: "alerts@example.com",
        subject_prefix: "[lab]",
        smtp_host: "127.0.0.1",
        smtp_port: port,
        smtp_username: "mailer",
        smtp_password: "smtp-pass",
        smtp_verify_tls: false,
      },
      { event_kinds: ["lab.email"] },
    );
    await h.enqueue({ kind: "lab.email", title: "Mail down" });
    await h.until(async () => (await deliveries(sink.id))[0]?.state === "delivered", "email delivery");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ from: "alerts@example.com", to: ["ops@example.com"], secure: true, user: "mailer" });
    expect(messages[0]!.data).toContain("Subject: [lab] [critical] Mail down");
    await new Promise((r) => server.close(() => r(undefined)));
  });
});

describe("routing", () => {
  it("admits by minimum severity and scope, and sends once per sink", async () => {
    const peer = await startPeer();
    const [site] = await h.t.sql<{ id: number }[]>`insert into sites (name) values ('lab-site') returning id`;
    const [inSite] = await h.t.sql<
      { id: number }[]
    >`insert into hardware (name, site_id, tags) values ('in-site', ${site!.id}, '{core}') returning id`;
    const [outside] = await h.t.sql<{ id: number }[]>`insert into hardware (name) values ('outside') returning id`;
    const sink = await h.sink("webhook", { url: peer.url }, { event_kinds: ["lab.route"], alert_severity: "warning", site_id: site!.id });
    // A second and third route to the same sink: still one delivery per alert.
    await h.req("POST", "notifications/routes", h.admin, { sink_id: sink.id, event_kinds: ["lab.route"], tag: "core" });
    await h.req("POST", "notifications/routes", h.admin, {
      sink_id: sink.id,
      event_kinds: ["lab.route"],
      alert_severity: "critical",
      site_id: site!.id,
    });
    await h.enqueue(
      { kind: "lab.route", severity: "critical", target_type: "hardware", target_id: inSite!.id, title: "in scope critical" },
      { kind: "lab.route", severity: "info", target_type: "hardware", target_id: outside!.id, title: "outside info" },
      { kind: "lab.route", severity: "warning", target_type: "hardware", target_id: outside!.id, title: "outside warning" },
    );
    await h.until(async () => (await deliveries(sink.id)).some((d: { state: string }) => d.state === "delivered"), "routed delivery");
    await new Promise((r) => setTimeout(r, 300));
    const titles = peer.received.map((r) => JSON.parse(r.body).data.title);
    expect(titles).toEqual(["in scope critical"]);
    const states = await h.t.sql`select title, state from notification_alerts where kind = 'lab.route' order by id`;
    expect(states.map((r) => r.state)).toEqual(["dispatched", "unrouted", "unrouted"]);
    await peer.close();
  });
});
