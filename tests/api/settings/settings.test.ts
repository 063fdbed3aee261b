// GET/PUT /settings, POST /settings/reset and /settings/oauth: validation, merge semantics, audit
// diffs, write-only client secrets, and the first-run gate (spec 5.4).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTING_DEFAULTS } from "../../../shared/settings/defaults.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { TEST_OUTBOUND_POLICY } from "../../helpers/env.ts";
import { confirmHeaders, createHarness, type Harness, json } from "../audit/harness.ts";

let h: Harness;
let fresh: TestApp;
beforeAll(async () => {
  h = await createHarness();
  fresh = await createTestApp({ SVC_SETUP_TOKEN: "settings-first-run" });
});
afterAll(async () => {
  await h?.t.close();
  await fresh?.close();
});

/** The sections GET /settings carries beside the plain keys, as they read before anything is configured. */
const SECTION_DEFAULTS = {
  smtp_enabled: false,
  smtp_host: null,
  smtp_port: 587,
  smtp_username: null,
  smtp_from_email: null,
  smtp_from_name: "Circuit Breaker",
  smtp_tls: true,
  smtp_verify_tls: true,
  smtp_last_test_at: null,
  smtp_last_test_status: null,
  smtp_password_set: false,
  acme_dns: { provider: null },
  firewall_url: null,
  firewall_verify_tls: true,
  firewall_api_key_set: false,
  firewall_api_secret_set: false,
};

const put = (body: unknown, token?: string) =>
  h.call("/api/v1/settings", { method: "PUT", ...json(body), ...(token === undefined ? {} : { token }) });
const patchOAuth = (body: unknown, token?: string) =>
  h.call("/api/v1/settings/oauth", { method: "PATCH", ...json(body), ...(token === undefined ? {} : { token }) });

describe("GET /settings", () => {
  it("answers every key with its default when nothing is stored", async () => {
    const res = await h.call("/api/v1/settings");
    expect(res.status).toBe(200);
    // The test template stores a loopback-allowing outbound policy (tests/helpers/env.ts).
    expect(await res.json()).toEqual({ ...SETTING_DEFAULTS, ...SECTION_DEFAULTS, outbound_policy: TEST_OUTBOUND_POLICY });
  });

  it("shows a stored value, and the default for a stored value that is no longer valid", async () => {
    await h.t.sql`insert into app_settings (key, value) values ('session_timeout_hours', '48'), ('lockout_minutes', '"soon"')`;
    const body = await (await h.call("/api/v1/settings")).json();
    expect(body.session_timeout_hours).toBe(48);
    expect(body.lockout_minutes).toBe(SETTING_DEFAULTS.lockout_minutes);
    await h.t.sql`delete from app_settings where key in ('session_timeout_hours', 'lockout_minutes')`;
  });

  it("needs a credential once an administrator exists", async () => {
    expect((await h.call("/api/v1/settings", { token: "" })).status).toBe(401);
  });
});

describe("PUT /settings", () => {
  it("changes only the keys given and audits their before and after", async () => {
    const res = await put({ session_timeout_hours: 12, allow_registration: true });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ session_timeout_hours: 12, allow_registration: true, lockout_threshold: 5 });
    const [entry] = await h.t.sql`select actor_id, diff from audit_log where action = 'settings.updated' order by id desc limit 1`;
    expect(entry).toMatchObject({
      actor_id: h.adminId,
      diff: {
        before: { session_timeout_hours: 24, allow_registration: false },
        after: { session_timeout_hours: 12, allow_registration: true },
      },
    });
    expect((await (await h.call("/api/v1/settings")).json()).session_timeout_hours).toBe(12);
  });

  it("accepts the whole read shape back; unchanged keys are not audited", async () => {
    const whole = await (await h.call("/api/v1/settings")).json();
    const before = await h.t.sql`select count(*)::int as n from audit_log where action = 'settings.updated'`;
    expect((await put(whole)).status).toBe(200);
    const after = await h.t.sql`select count(*)::int as n from audit_log where action = 'settings.updated'`;
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("refuses a changed SMTP, ACME DNS or firewall key with 422 naming its own route, changing nothing", async () => {
    const before = await h.t.sql`select key, value from app_settings order by key`;
    const res = await put({
      session_timeout_hours: 6,
      smtp_host: "mail.example.com",
      acme_dns: { provider: "cloudflare" },
      firewall_api_key_set: true,
    });
    expect(res.status).toBe(422);
    const body = await res.json();
    const fields = body.detail.map((d: { loc: string[] }) => d.loc.at(-1)).sort();
    expect(fields).toEqual(["acme_dns", "firewall_api_key_set", "smtp_host"]);
    expect(body.detail.find((d: { loc: string[] }) => d.loc.at(-1) === "smtp_host").msg).toContain("PATCH /api/v1/settings/smtp");
    expect(await h.t.sql`select key, value from app_settings order by key`).toEqual(before);
  });

  it("null puts a key back to its default", async () => {
    const body = await (await put({ session_timeout_hours: null })).json();
    expect(body.session_timeout_hours).toBe(24);
    expect(await h.t.sql`select 1 from app_settings where key = 'session_timeout_hours'`).toHaveLength(0);
  });

  it("refuses out-of-range and wrongly typed values with 422 per field, changing nothing", async () => {
    const cases: [string, unknown][] = [
      ["rate_limit_profile", "turbo"],
      ["session_timeout_hours", 0],
      ["session_timeout_hours", 721],
      ["session_timeout_hours", 1.5],
      ["lockout_threshold", 101],
      ["lockout_minutes", 1441],
      ["telemetry_hot_days", 366],
      ["telemetry_warm_days", 3651],
      ["allow_registration", "yes"],
      ["registration_default_role", "admin"],
    ];
    for (const [key, value] of cases) {
      const res = await put({ lockout_threshold: 3, [key]: value });
      expect(res.status, `${key}=${value}`).toBe(422);
      expect(Object.keys((await res.json()).fields), `${key}=${value}`).toEqual([key]);
    }
    expect((await (await h.call("/api/v1/settings")).json()).lockout_threshold).toBe(5);
  });

  it("takes the outbound policy as a whole object of two booleans (allow_link_local only false), naming a bad member", async () => {
    const cases: [unknown, string][] = [
      [{ allow_private: true, allow_loopback: "yes", allow_link_local: false }, "outbound_policy.allow_loopback"],
      [{ allow_private: true, allow_link_local: false }, "outbound_policy.allow_loopback"],
      [{ allow_private: true, allow_loopback: true, allow_link_local: true }, "outbound_policy.allow_link_local"],
      [{ allow_private: true, allow_loopback: true, allow_link_local: false, allow_all: true }, "outbound_policy.allow_all"],
      ["open", "outbound_policy"],
    ];
    for (const [value, field] of cases) {
      const res = await put({ outbound_policy: value });
      expect(res.status, field).toBe(422);
      expect(Object.keys((await res.json()).fields), JSON.stringify(value)).toEqual([field]);
    }
    const strict = { allow_private: false, allow_loopback: false, allow_link_local: false };
    expect((await (await put({ outbound_policy: strict })).json()).outbound_policy).toEqual(strict);
    expect((await (await put({ outbound_policy: null })).json()).outbound_policy).toEqual(SETTING_DEFAULTS.outbound_policy);
    expect(await h.t.sql`select 1 from app_settings where key = 'outbound_policy'`).toHaveLength(0);
  });

  it("names every unknown key", async () => {
    const res = await put({ lockout_threshold: 3, colour: "red", oauth: {} });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(Object.keys(body.fields).sort()).toEqual(["colour", "oauth"]);
    expect(body.detail[0]).toMatchObject({ loc: ["body", "colour"] });
    expect(body.fields.colour).toMatch(/Unknown/);
    expect((await (await h.call("/api/v1/settings")).json()).lockout_threshold).toBe(5);
  });

  it("keeps telemetry_hot_days below telemetry_warm_days, against the stored values too", async () => {
    expect((await put({ telemetry_hot_days: 30, telemetry_warm_days: 30 })).status).toBe(422);
    expect((await put({ telemetry_hot_days: 30 })).status).toBe(422); // warm is 30 (default)
    expect((await put({ telemetry_warm_days: 90 })).status).toBe(200);
    expect((await put({ telemetry_hot_days: 30 })).status).toBe(200);
    const res = await put({ telemetry_warm_days: 10 });
    expect(res.status).toBe(422);
    expect((await res.json()).fields).toHaveProperty("telemetry_warm_days");
  });

  it("rejects a body that is not an object, and a viewer", async () => {
    expect((await h.call("/api/v1/settings", { method: "PUT", ...json([1, 2]) })).status).toBe(422);
    expect((await put({ lockout_threshold: 3 }, h.viewerToken)).status).toBe(403);
    expect((await put({ lockout_threshold: 3 }, "")).status).toBe(401);
  });
});

describe("POST /settings/reset", () => {
  it("needs confirmation, then puts every key back to its default and audits it", async () => {
    expect((await h.call("/api/v1/settings/reset", { method: "POST" })).status).toBe(428);
    const res = await h.call("/api/v1/settings/reset", {
      method: "POST",
      headers: confirmHeaders("reset-settings", "settings-reset-0001"),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(SETTING_DEFAULTS);
    const [entry] = await h.t.sql`select diff from audit_log where action = 'settings.reset'`;
    expect(entry!.diff).toMatchObject({
      before: { telemetry_hot_days: 30, telemetry_warm_days: 90 },
      after: { telemetry_hot_days: 7, telemetry_warm_days: 30 },
    });
  });
});

/** The provider fields a PATCH did not set, as they read. */
const PROVIDER_DEFAULTS = { label: null, allow_registration: false, default_role: "viewer", tenant: null, base_url: null, api_url: null };

describe("/settings/oauth", () => {
  it("starts empty", async () => {
    expect(await (await h.call("/api/v1/settings/oauth")).json()).toEqual({ providers: {} });
  });

  it("stores a provider; the client secret is write-only and never in a response, a log or the audit", async () => {
    const res = await patchOAuth({
      providers: { github: { client_id: "abc123", issuer: "https://github.com", enabled: true, client_secret: "s3cret-value-xyz" } },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("s3cret-value-xyz");
    expect(JSON.parse(text)).toEqual({
      providers: {
        github: {
          ...PROVIDER_DEFAULTS,
          type: "github",
          client_id: "abc123",
          issuer: "https://github.com",
          enabled: true,
          client_secret_set: true,
        },
      },
    });
    const read = await (await h.call("/api/v1/settings/oauth", { token: h.viewerToken })).text();
    expect(read).not.toContain("s3cret-value-xyz");
    const audit = await h.t.sql`select diff::text as d from audit_log where action = 'settings.oauth_updated'`;
    expect(audit).toHaveLength(1);
    expect(audit[0]!.d).not.toContain("s3cret-value-xyz");
    const settingsRow = await h.t.sql`select value::text as v from app_settings where key = 'oauth'`;
    expect(settingsRow[0]!.v).not.toContain("s3cret-value-xyz");
  });

  it("merges: fields not given stay, client_secret_set sent back is ignored, null removes", async () => {
    const body = await (
      await patchOAuth({ providers: { github: { enabled: false, client_secret_set: false }, gitlab: { client_id: "gl" } } })
    ).json();
    expect(body.providers.github).toEqual({
      ...PROVIDER_DEFAULTS,
      type: "github",
      client_id: "abc123",
      issuer: "https://github.com",
      enabled: false,
      client_secret_set: true,
    });
    // A name that is no preset is an OpenID Connect provider unless the type says otherwise.
    expect(body.providers.gitlab).toEqual({
      ...PROVIDER_DEFAULTS,
      type: "oidc",
      client_id: "gl",
      issuer: null,
      enabled: false,
      client_secret_set: false,
    });
    const cleared = await (await patchOAuth({ providers: { github: { client_secret: null }, gitlab: null } })).json();
    expect(cleared).toEqual({
      providers: {
        github: {
          ...PROVIDER_DEFAULTS,
          type: "github",
          client_id: "abc123",
          issuer: "https://github.com",
          enabled: false,
          client_secret_set: false,
        },
      },
    });
    expect(await h.t.sql`select 1 from server_secrets where name like 'oauth.%'`).toHaveLength(0);
  });

  it("refuses bad input with 422 and changes nothing", async () => {
    const bad: unknown[] = [
      { providers: { GitHub: { client_id: "x" } } },
      { providers: { github: { issuer: "not a url" } } },
      { providers: { github: { issuer: "ftp://example.com" } } },
      { providers: { github: { scopes: ["x"] } } },
      { providers: { okta: { enabled: true } } },
      { providers: { okta: { client_id: "o", enabled: true } } }, // an OIDC provider needs its issuer
      { providers: { ms: { type: "microsoft", client_id: "m", enabled: true } } }, // Microsoft needs its tenant
      { providers: { github: { default_role: "no-such-role" } } },
      { providers: { github: { type: "saml" } } },
      { github: {} },
    ];
    for (const b of bad) expect((await patchOAuth(b)).status, JSON.stringify(b)).toBe(422);
    expect(Object.keys((await (await h.call("/api/v1/settings/oauth")).json()).providers)).toEqual(["github"]);
  });

  it("is written by administrators only", async () => {
    expect((await patchOAuth({ providers: {} }, h.viewerToken)).status).toBe(403);
    expect((await h.call("/api/v1/settings/oauth", { token: "" })).status).toBe(401);
  });
});

describe("before first run (spec 5.4)", () => {
  it("GET /settings and PATCH /settings/oauth are open to the setup token; everything else here answers 401", async () => {
    const setup = { "x-setup-token": "settings-first-run" };
    expect((await fresh.app.request("/api/v1/settings")).status).toBe(401);
    const get = await fresh.app.request("/api/v1/settings", { headers: setup });
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ ...SETTING_DEFAULTS, ...SECTION_DEFAULTS, outbound_policy: TEST_OUTBOUND_POLICY });
    expect((await fresh.app.request("/api/v1/settings", { method: "HEAD", headers: setup })).status).toBe(200);
    const patch = await fresh.app.request("/api/v1/settings/oauth", {
      method: "PATCH",
      ...json({ providers: { oidc: { client_id: "first-run", issuer: "https://id.example.com", enabled: true } } }, setup),
    });
    expect(patch.status).toBe(200);
    const [entry] = await fresh.sql`select actor_id, role_at_time from audit_log where action = 'settings.oauth_updated'`;
    expect(entry).toEqual({ actor_id: null, role_at_time: "admin" });
    expect((await fresh.app.request("/api/v1/settings/oauth")).status).toBe(401);
    expect((await fresh.app.request("/api/v1/settings", { method: "PUT", ...json({ lockout_threshold: 3 }) })).status).toBe(401);
    expect((await fresh.app.request("/api/v1/logs")).status).toBe(401);
  });
});
