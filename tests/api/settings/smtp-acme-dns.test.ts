// PATCH /settings/smtp and PATCH /settings/acme-dns: merge semantics, write-only secrets sealed in the
// vault (never in a response, app_settings or the audit), the outbound policy on the SMTP host, 422s
// naming the field and changing nothing, admin only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, json } from "../audit/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.t.close();
});

const patch = (path: string, body: unknown, token?: string) =>
  h.call(`/api/v1/settings/${path}`, { method: "PATCH", ...json(body), ...(token === undefined ? {} : { token }) });
const secretRows = (prefix: string) =>
  h.t.sql`select name, value from server_secrets where name like ${`settings.${prefix}.%`} order by name`;
const fieldsOf = async (res: Response) => (await res.json()).detail.map((i: { loc: string[] }) => i.loc.join("."));

describe("PATCH /settings/smtp", () => {
  it("answers the defaults with every other setting", async () => {
    const res = await patch("smtp", {});
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      smtp_enabled: false,
      smtp_host: null,
      smtp_port: 587,
      smtp_from_name: "Circuit Breaker",
      smtp_tls: true,
      smtp_password_set: false,
    });
    expect(body.session_timeout_hours).toBeTypeOf("number");
  });

  it("stores the fields, turns SMTP on with host and sender, seals the password and never shows it", async () => {
    const res = await patch("smtp", {
      smtp_host: "mail.example.test",
      smtp_port: 2525,
      smtp_username: "ops",
      smtp_password: "pw-Secret-123",
      smtp_from_email: "cb@example.test",
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("pw-Secret-123");
    expect(JSON.parse(text)).toMatchObject({
      smtp_enabled: true,
      smtp_host: "mail.example.test",
      smtp_port: 2525,
      smtp_username: "ops",
      smtp_password_set: true,
      smtp_from_email: "cb@example.test",
    });
    const [row] = await secretRows("smtp");
    expect(row!.name).toBe("settings.smtp.smtp_password");
    expect(row!.value).toMatch(/^vault:v1:/);
    const stored = await h.t.sql`select value::text as v from app_settings where key = 'smtp'`;
    expect(stored[0]!.v).not.toContain("pw-Secret-123");
    const audit = await h.t.sql`select diff::text as d from audit_log where action = 'settings.smtp_updated'`;
    expect(audit.length).toBeGreaterThan(0);
    for (const a of audit) expect(a.d).not.toContain("pw-Secret-123");
  });

  it("keeps the password when omitted or masked, null clears it and restores defaults", async () => {
    const [before] = await secretRows("smtp");
    const masked = await (await patch("smtp", { smtp_password: "•••", smtp_port: 587, smtp_password_set: false })).json();
    expect(masked.smtp_password_set).toBe(true);
    expect((await secretRows("smtp"))[0]!.value).toBe(before!.value);
    const cleared = await (await patch("smtp", { smtp_password: null, smtp_username: null, smtp_port: null })).json();
    expect(cleared).toMatchObject({ smtp_password_set: false, smtp_username: null, smtp_port: 587, smtp_host: "mail.example.test" });
    expect(await secretRows("smtp")).toHaveLength(0);
  });

  it("refuses bad input with 422 naming the field, and changes nothing", async () => {
    const before = await h.t.sql`select value::text as v from app_settings where key = 'smtp'`;
    const cases: [unknown, string][] = [
      [{ smtp_host: "169.254.169.254" }, "body.smtp_host"],
      [{ smtp_port: 70000 }, "body.smtp_port"],
      [{ smtp_from_email: "not-an-email" }, "body.smtp_from_email"],
      [{ smtp_tls: "yes" }, "body.smtp_tls"],
      [{ smtp_relay: "x" }, "body.smtp_relay"],
      [{ smtp_host: null, smtp_enabled: true }, "body.smtp_host"],
    ];
    for (const [body, field] of cases) {
      const res = await patch("smtp", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(await fieldsOf(res)).toContain(field);
    }
    expect(await h.t.sql`select value::text as v from app_settings where key = 'smtp'`).toEqual(before);
  });

  it("is written by administrators only", async () => {
    expect((await patch("smtp", { smtp_port: 25 }, h.viewerToken)).status).toBe(403);
    expect((await patch("smtp", { smtp_port: 25 }, "")).status).toBe(401);
  });
});

describe("PATCH /settings/acme-dns", () => {
  it("stores a cloudflare token sealed, read as api_token_set", async () => {
    const res = await patch("acme-dns", { provider: "cloudflare", api_token: "cf-Token-abc" });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("cf-Token-abc");
    expect(JSON.parse(text).acme_dns).toEqual({ provider: "cloudflare", api_token_set: true });
    const rows = await secretRows("acme_dns");
    expect(rows.map((r) => r.name)).toEqual(["settings.acme_dns.api_token"]);
    expect(rows[0]!.value).toMatch(/^vault:v1:/);
    // The masked value sent back keeps it.
    expect((await (await patch("acme-dns", { provider: "cloudflare", api_token: "•••" })).json()).acme_dns.api_token_set).toBe(true);
    expect((await secretRows("acme_dns"))[0]!.value).toBe(rows[0]!.value);
    const audit = await h.t.sql`select diff::text as d from audit_log where action = 'settings.acme_dns_updated'`;
    for (const a of audit) expect(a.d).not.toContain("cf-Token-abc");
  });

  it("switching to rfc2136 drops the cloudflare credential; provider null clears everything", async () => {
    const res = await patch("acme-dns", {
      provider: "rfc2136",
      server: "ns1.example.test",
      tsig_name: "acme-key.",
      tsig_secret: "c2VjcmV0LWtleQ==",
    });
    expect(res.status).toBe(200);
    expect((await res.json()).acme_dns).toEqual({
      provider: "rfc2136",
      server: "ns1.example.test",
      port: 53,
      tsig_name: "acme-key.",
      tsig_algorithm: "hmac-sha256",
      tsig_secret_set: true,
    });
    expect((await secretRows("acme_dns")).map((r) => r.name)).toEqual(["settings.acme_dns.tsig_secret"]);
    // Same provider: the fields not given stay.
    expect((await (await patch("acme-dns", { provider: "rfc2136", port: 5353 })).json()).acme_dns).toMatchObject({
      server: "ns1.example.test",
      port: 5353,
      tsig_secret_set: true,
    });
    const cleared = await (await patch("acme-dns", { provider: null })).json();
    expect(cleared.acme_dns).toEqual({ provider: null });
    expect(await secretRows("acme_dns")).toHaveLength(0);
    expect(await h.t.sql`select 1 from app_settings where key = 'acme_dns'`).toHaveLength(0);
  });

  it("refuses bad input with 422 naming the field, and changes nothing", async () => {
    await patch("acme-dns", { provider: "cloudflare", api_token: "keep-me" });
    const before = await secretRows("acme_dns");
    const cases: [unknown, string][] = [
      [{ provider: "route53", api_token: "x" }, "body.provider"],
      [{ provider: "cloudflare", server: "ns1.example.test" }, "body.server"],
      [{ provider: "rfc2136", server: "ns1.example.test", tsig_name: "k" }, "body.tsig_secret"],
      [{ provider: "rfc2136", tsig_name: "k", tsig_secret: "c2VjcmV0" }, "body.server"],
      [{ provider: "rfc2136", server: "ns", tsig_name: "k", tsig_secret: "not base64!" }, "body.tsig_secret"],
      [{ provider: "rfc2136", server: "ns", tsig_name: "k", tsig_secret: "c2VjcmV0", tsig_algorithm: "rot13" }, "body.tsig_algorithm"],
      [{ api_token: "x" }, "body.provider"],
    ];
    for (const [body, field] of cases) {
      const res = await patch("acme-dns", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(await fieldsOf(res), JSON.stringify(body)).toContain(field);
    }
    expect(await secretRows("acme_dns")).toEqual(before);
  });

  it("is written by administrators only", async () => {
    expect((await patch("acme-dns", { provider: null }, h.viewerToken)).status).toBe(403);
    expect((await patch("acme-dns", { provider: null }, "")).status).toBe(401);
  });
});
