// The SSRF policy on notification sinks: URLs checked when a sink is created or changed (422 naming the
// field, nothing written), and at delivery on the address actually connected to (a sink stored while
// loopback was allowed is refused once the administrator tightens the policy; the peer hears nothing).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OUTBOUND_POLICY } from "../../../shared/domain/net/outbound-policy.ts";
import { readOutboundPolicy } from "../../../shared/verbs/integrations/outbound-policy.ts";
import { TEST_OUTBOUND_POLICY } from "../../helpers/env.ts";
import { createHarness, type Harness, startPeer } from "./support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ timeoutMs: 1000, maxAttempts: 2 });
});
afterAll(async () => h?.close());

const setPolicy = async (policy: object) => {
  const res = await h.req("PUT", "settings", h.admin, { outbound_policy: policy });
  expect(res.status).toBe(200);
};
const sinkCount = async () => (await h.t.sql`select count(*)::int as n from notification_sinks`)[0]!.n;

describe("readOutboundPolicy", () => {
  it("answers the stored policy, and the default when none or an invalid one is stored", async () => {
    const db = h.t.runtime.database.db;
    expect(await readOutboundPolicy(db)).toEqual(TEST_OUTBOUND_POLICY);
    await h.t.sql`update app_settings set value = ${h.t.sql.json({ allow_loopback: "sure" })} where key = 'outbound_policy'`;
    expect(await readOutboundPolicy(db)).toEqual(DEFAULT_OUTBOUND_POLICY);
    await h.t.sql`delete from app_settings where key = 'outbound_policy'`;
    expect(await readOutboundPolicy(db)).toEqual(DEFAULT_OUTBOUND_POLICY);
    await setPolicy(TEST_OUTBOUND_POLICY);
    expect(await readOutboundPolicy(db)).toEqual(TEST_OUTBOUND_POLICY);
  });
});

describe("sink URLs on create and update", () => {
  it("refuses loopback by default and metadata always, naming the field and writing nothing", async () => {
    await setPolicy(DEFAULT_OUTBOUND_POLICY);
    const before = await sinkCount();
    const loop = await h.req("POST", "notifications/sinks", h.admin, {
      name: "l",
      provider_type: "webhook",
      provider_config: { url: "http://127.0.0.1:9/hook" },
    });
    expect(loop.status).toBe(422);
    const body = await loop.json();
    expect(Object.keys(body.fields)).toEqual(["provider_config.url"]);
    expect(body.fields["provider_config.url"]).toMatch(/allow_loopback/);
    const named = await h.req("POST", "notifications/sinks", h.admin, {
      name: "n",
      provider_type: "gotify",
      provider_config: { base_url: "http://localhost:8080", token: "t" },
    });
    expect(named.status).toBe(422);
    await setPolicy({ allow_private: true, allow_loopback: true });
    const meta = await h.req("POST", "notifications/sinks", h.admin, {
      name: "m",
      provider_type: "slack",
      provider_config: { webhook_url: "http://169.254.169.254/services/T0/SECRETPATH" },
    });
    expect(meta.status).toBe(422);
    const text = JSON.stringify(await meta.json());
    expect(text).toContain("provider_config.webhook_url");
    expect(text).toMatch(/metadata/);
    expect(text).not.toContain("SECRETPATH");
    await setPolicy(DEFAULT_OUTBOUND_POLICY);
    const mail = await h.req("POST", "notifications/sinks", h.admin, {
      name: "mail",
      provider_type: "email",
      provider_config: { to: "ops@example.com", smtp_host: "localhost" },
    });
    expect(mail.status).toBe(422);
    expect(Object.keys((await mail.json()).fields)).toEqual(["provider_config.smtp_host"]);
    expect(await sinkCount()).toBe(before);
  });

  it("checks a URL changed by PATCH; a private address stays allowed by default", async () => {
    await setPolicy(DEFAULT_OUTBOUND_POLICY);
    const created = await h.req("POST", "notifications/sinks", h.admin, {
      name: "lan",
      provider_type: "webhook",
      provider_config: { url: "http://192.168.1.40/hook" },
    });
    expect(created.status).toBe(201);
    const sink = await created.json();
    const patched = await h.req("PATCH", `notifications/sinks/${sink.id}`, h.admin, { provider_config: { url: "http://[::1]:9/hook" } });
    expect(patched.status).toBe(422);
    expect(Object.keys((await patched.json()).fields)).toEqual(["provider_config.url"]);
    const [row] = await h.t.sql`select provider_config from notification_sinks where id = ${sink.id}`;
    expect(row!.provider_config.url).toBe("http://192.168.1.40/hook");
    await h.req("DELETE", `notifications/sinks/${sink.id}`, h.admin);
  });
});

describe("delivery", () => {
  it("refuses to send to a sink whose address the policy now forbids", async () => {
    await setPolicy(TEST_OUTBOUND_POLICY);
    const peer = await startPeer();
    const sink = await h.sink("webhook", { url: `${peer.url}/hook` }, { event_kinds: ["lab.policy"] });
    await setPolicy(DEFAULT_OUTBOUND_POLICY);
    await h.enqueue({ kind: "lab.policy" });
    const attempt = await h.until(async () => {
      const items = (await (await h.req("GET", `notifications/deliveries?sink_id=${sink.id}`, h.admin)).json()).items;
      return items[0]?.attempts?.[0];
    }, "a refused attempt");
    expect(attempt.outcome).toBe("failed");
    expect(attempt.error).toMatch(/Refused by the outbound policy.*allow_loopback/);
    expect(peer.received).toHaveLength(0);
    await setPolicy(TEST_OUTBOUND_POLICY);
    await peer.close();
  });

  it("refuses an SMTP server the policy now forbids, before connecting", async () => {
    await setPolicy(TEST_OUTBOUND_POLICY);
    const sink = await h.sink(
      "email",
      { to: "ops@example.com", smtp_host: "127.0.0.1", smtp_port: 9 },
      { event_kinds: ["lab.policy.mail"] },
    );
    await setPolicy(DEFAULT_OUTBOUND_POLICY);
    await h.enqueue({ kind: "lab.policy.mail" });
    const attempt = await h.until(async () => {
      const items = (await (await h.req("GET", `notifications/deliveries?sink_id=${sink.id}`, h.admin)).json()).items;
      return items[0]?.attempts?.[0];
    }, "a refused attempt");
    expect(attempt.error).toMatch(/Refused by the outbound policy.*allow_loopback/);
    await setPolicy(TEST_OUTBOUND_POLICY);
  });
});
