// POST /auth/vault-reset: an administrator's password reset by a caller who proves possession of the vault
// key. Uniform 401 for every mismatch, nothing changed on any bad input, audited, rate-limited as a sign-in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json } from "../../helpers/app.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { TEST_VAULT_KEY } from "../../helpers/env.ts";
import { newVaultKey } from "./support.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a?.t.close());

const REFUSED = "Unable to reset password with the provided recovery credentials";
const NEW_PASSWORD = "a brand new admin password";
const reset = (body: unknown) => a.req("POST", "auth/vault-reset", undefined, body);
const adminRow = async () =>
  (await a.t.sql`select password_hash, failed_logins, locked_until, must_change_password from users where email = 'admin@example.com'`)[0]!;
const login = (email: string, password: string) => a.req("POST", "auth/jwt/login", undefined, { email, password });

describe("vault-reset: bad input changes nothing", () => {
  it("any mismatch is the same 401, audited without the key", async () => {
    const before = await adminRow();
    const wrongKey = newVaultKey();
    const cases = [
      { email: "admin@example.com", vault_key: wrongKey },
      { email: "admin@example.com", vault_key: "not base64 at all" },
      { email: "admin@example.com", vault_key: TEST_VAULT_KEY.slice(0, 20) },
      { email: "nobody@example.com", vault_key: TEST_VAULT_KEY },
      { email: "not an email", vault_key: TEST_VAULT_KEY },
      { email: "editor@example.com", vault_key: TEST_VAULT_KEY },
    ];
    for (const c of cases) {
      const res = await reset({ ...c, new_password: NEW_PASSWORD });
      expect(res.status, JSON.stringify(c)).toBe(401);
      expect(await res.json()).toMatchObject({ detail: REFUSED });
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(await adminRow()).toEqual(before);
    const audits = await a.t.sql`select level, diff::text as diff from audit_log where action = 'auth.vault_reset_failed' order by id`;
    expect(audits.map((r) => JSON.parse(r.diff).reason)).toEqual([
      "wrong_key",
      "wrong_key",
      "wrong_key",
      "unknown_user",
      "unknown_user",
      "not_admin",
    ]);
    expect(audits.every((r) => r.level === "warning")).toBe(true);
    const text = audits.map((r) => r.diff).join();
    expect(text).not.toContain(wrongKey);
    expect(text).not.toContain(TEST_VAULT_KEY.slice(0, 20));
  });

  it("422 for a body without new_password, with new_password_hash, or a password the policy refuses", async () => {
    const before = await adminRow();
    for (const body of [
      { email: "admin@example.com", vault_key: TEST_VAULT_KEY },
      {
        email: "admin@example.com",
        vault_key: TEST_VAULT_KEY,
        new_password: NEW_PASSWORD,
        new_password_hash: "pbkdf2_sha256$1$c2FsdHNhbHQ=$aGFzaA==",
      },
      { email: "admin@example.com", vault_key: TEST_VAULT_KEY, new_password_hash: "pbkdf2_sha256$1$c2FsdHNhbHQ=$aGFzaA==" },
      { email: "admin@example.com", vault_key: TEST_VAULT_KEY, new_password: "short" },
    ]) {
      const res = await reset(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(await res.json())).not.toContain(TEST_VAULT_KEY);
    }
    expect(await adminRow()).toEqual(before);
  });
});

describe("vault-reset: happy path", () => {
  it("resets the password, clears a lockout, revokes other sessions, signs in, and is audited", async () => {
    await a.t.sql`update users set failed_logins = 9, locked_until = now() + interval '1 hour' where email = 'admin@example.com'`;
    const res = await reset({ email: "Admin@Example.com", vault_key: TEST_VAULT_KEY, new_password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      token: expect.any(String),
      csrf_token: expect.any(String),
      user: { email: "admin@example.com", is_admin: true },
    });
    expect(res.headers.get("set-cookie")).toMatch(/svc_session=/);
    expect(await adminRow()).toMatchObject({ failed_logins: 0, locked_until: null, must_change_password: false });
    // The old session is gone; the new one works; the new password signs in and the old one does not.
    expect((await a.req("GET", "auth/me", a.admin)).status).toBe(401);
    expect((await a.req("GET", "auth/me", body.token)).status).toBe(200);
    expect((await login("admin@example.com", NEW_PASSWORD)).status).toBe(200);
    expect((await login("admin@example.com", "admin password for tests")).status).toBe(401);
    const [entry] = await a.t.sql`select diff::text as diff from audit_log where action = 'password.vault_reset'`;
    expect(JSON.parse(entry!.diff)).toEqual({ unlocked: true, revoked_sessions: 1 });
    expect(await a.t.sql`select 1 from audit_log where action = 'login.vault_reset'`).toHaveLength(1);
  });
});

describe("vault-reset: rate limit", () => {
  it("is counted as a sign-in (auth: 5 per minute per client): the sixth try from one address is 429", async () => {
    const peer = `10.250.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await a.t.app.request("/api/v1/auth/vault-reset", {
        method: "POST",
        ...json({ email: "admin@example.com", vault_key: newVaultKey(), new_password: NEW_PASSWORD }, { "x-test-peer": peer }),
      });
      statuses.push(res.status);
      if (res.status === 429) expect(await res.json()).toMatchObject({ error_code: "RATE_LIMITED", retry_after: expect.any(Number) });
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});
