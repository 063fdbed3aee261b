// /notifications/sinks* and /routes*: CRUD, validation per provider type, secrets masked and kept, the
// generated webhook secret shown once, the queued test delivery, routes by severity and scope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  // No notification worker runs here: a test waits briefly, then says it is still queued.
  a = await createActors({ NOTIFICATION_TEST_WAIT_MS: "300" });
});
afterAll(async () => a?.t.close());

const create = (body: unknown, token = a.admin) => a.req("POST", "notifications/sinks", token, body);

describe("sinks", () => {
  it("creates a webhook sink with a generated secret shown once, then masked", async () => {
    const res = await create({ name: "hook", provider_type: "webhook", provider_config: { url: "http://127.0.0.1:9/hook" } });
    expect(res.status).toBe(201);
    const sink = await res.json();
    expect(sink.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(sink.provider_config).toMatchObject({ url: "http://127.0.0.1:9/hook", secret: "•••", secret_set: true });
    const list = await (await a.req("GET", "notifications/sinks", a.admin)).json();
    const listed = list.items.find((s: { id: number }) => s.id === sink.id);
    expect(listed.secret).toBeUndefined();
    expect(JSON.stringify(list)).not.toContain(sink.secret);
    const [row] = await a.t.sql`select secrets from notification_sinks where id = ${sink.id}`;
    expect(row!.secrets).toMatch(/^vault:v1:/);
  });

  it("masks chat webhook URLs and keeps the secret when the mask is sent back", async () => {
    const url = "https://hooks.slack.com/services/T000/B000/XXXXSECRET";
    const sink = await (await create({ name: "slack", provider_type: "slack", provider_config: { webhook_url: url } })).json();
    expect(sink.provider_config).toEqual({ webhook_url: "https://hooks.slack.com/services/•••", webhook_url_set: true });
    const patched = await a.req("PATCH", `notifications/sinks/${sink.id}`, a.admin, { ...sink, name: "slack-2" });
    expect(patched.status).toBe(200);
    expect((await patched.json()).name).toBe("slack-2");
    const [row] = await a.t.sql`select secrets from notification_sinks where id = ${sink.id}`;
    const { openSinkSecrets } = await import("../../../shared/verbs/notifications/sink-secrets.ts");
    expect(await openSinkSecrets(a.t.runtime.deps.vault, { id: sink.id, secrets: row!.secrets })).toEqual({ webhook_url: url });
    const toggled = await (await a.req("PUT", `notifications/sinks/${sink.id}/toggle`, a.admin)).json();
    expect(toggled.enabled).toBe(false);
  });

  it("refuses unknown keys, missing recipients and unknown types with 422, changing nothing", async () => {
    const before = (await a.t.sql`select count(*)::int as n from notification_sinks`)[0]!.n;
    const unknown = await create({
      name: "x",
      provider_type: "discord",
      provider_config: { webhook_url: "https://d.example/api/webhooks/1/x", colour: 1 },
    });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(await unknown.json())).toContain("colour");
    const email = await create({ name: "mail", provider_type: "email", provider_config: { smtp_host: "127.0.0.1" } });
    expect(email.status).toBe(422);
    expect(JSON.stringify(await email.json())).toContain("needs a recipient");
    const type = await create({ name: "x", provider_type: "pager", provider_config: {} });
    expect(type.status).toBe(422);
    expect((await a.t.sql`select count(*)::int as n from notification_sinks`)[0]!.n).toBe(before);
  });

  it("is for administrators only", async () => {
    expect((await a.req("GET", "notifications/sinks", a.editor)).status).toBe(403);
    expect((await create({ name: "e", provider_type: "ntfy", provider_config: { topic: "t" } }, a.editor)).status).toBe(403);
  });

  it("queues a test delivery and, with no worker to send it in time, answers that it is still queued", async () => {
    const sink = await (
      await create({ name: "ntfy", provider_type: "ntfy", provider_config: { base_url: "http://127.0.0.1:9", topic: "alerts" } })
    ).json();
    const res = await a.req("POST", `notifications/sinks/${sink.id}/test`, a.admin);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: false, state: "pending", http_status: null, duration_ms: null, attempt_outcome: null });
    expect(body.error).toContain(`No notification worker sent the test within 0.3 s: it stays queued as delivery ${body.delivery_id}`);
    const list = await (await a.req("GET", `notifications/deliveries?alert_kind=notification.test`, a.admin)).json();
    expect(list.items.map((d: { id: number }) => d.id)).toContain(body.delivery_id);
    expect((await a.req("POST", "notifications/sinks/999999/test", a.admin)).status).toBe(404);
  });

  it("deletes a sink (404 afterwards)", async () => {
    const sink = await (
      await create({ name: "gone", provider_type: "gotify", provider_config: { base_url: "http://127.0.0.1:9", token: "tok" } })
    ).json();
    expect(await (await a.req("DELETE", `notifications/sinks/${sink.id}`, a.admin)).json()).toEqual({ status: "ok" });
    const again = await a.req("DELETE", `notifications/sinks/${sink.id}`, a.admin);
    expect(again.status).toBe(404);
    expect((await again.json()).detail).toContain("Notification sink");
  });
});

describe("routes", () => {
  it("creates, lists and deletes routes; refuses bad severities and unknown sinks", async () => {
    const sink = await (
      await create({ name: "r", provider_type: "telegram", provider_config: { bot_token: "1:abc", chat_id: "42" } })
    ).json();
    const res = await a.req("POST", "notifications/routes", a.admin, {
      sink_id: sink.id,
      alert_severity: "warning",
      event_kinds: ["monitor.*"],
      tag: "core",
    });
    expect(res.status).toBe(201);
    const route = await res.json();
    expect(route).toMatchObject({
      sink_id: sink.id,
      alert_severity: "warning",
      event_kinds: ["monitor.*"],
      tag: "core",
      site_id: null,
      enabled: true,
    });
    expect((await a.req("POST", "notifications/routes", a.admin, { sink_id: sink.id, alert_severity: "loud" })).status).toBe(422);
    const missing = await a.req("POST", "notifications/routes", a.admin, { sink_id: 999999 });
    expect(missing.status).toBe(404);
    const list = await (await a.req("GET", `notifications/routes?sink_id=${sink.id}`, a.admin)).json();
    expect(list.total).toBe(1);
    expect((await a.req("DELETE", `notifications/routes/${route.id}`, a.admin)).status).toBe(200);
    expect((await a.req("DELETE", `notifications/routes/${route.id}`, a.admin)).status).toBe(404);
  });
});
