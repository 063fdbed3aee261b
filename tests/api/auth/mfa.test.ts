// MFA: setup, activate, the two-step sign-in through /auth/mfa/verify (TOTP with replay refusal, single-use
// backup codes), regeneration and disabling; audiences keep MFA and session tokens apart; /verify is
// CSRF-exempt. The app's clock is driven, so each test can step to a fresh 30-second TOTP window.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "../../../shared/auth/password.ts";
import { totpCode } from "../../../shared/auth/totp.ts";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";
import { csrfHeaders, sessionCookies } from "../../helpers/session-cookies.ts";

const SETUP = "setup-token-mfa-tests";
const admin = { email: "root@example.com", password: "a very long admin password" };
const alice = { email: "alice@example.com", password: "alice's long password" };

let t: TestApp;
let now = Date.now();
let aliceToken: string;
let secret: string;
let backupCodes: string[];

/** Moves the app's clock to the next TOTP step, so a fresh code can be accepted. */
const nextStep = () => (now += 30_000);
const code = () => totpCode(secret, now);

async function call(method: string, path: string, token?: string, body?: unknown): Promise<Response> {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return t.app.request(`/api/v1${path}`, { method, ...(body === undefined ? { headers: auth } : json(body, auth)) });
}

async function mfaToken(): Promise<string> {
  const res = await call("POST", "/auth/login", undefined, alice);
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body).toEqual({ requires_mfa: true, mfa_token: expect.any(String) });
  expect(res.headers.getSetCookie()).toEqual([]);
  return body.mfa_token;
}

async function auditActions(): Promise<string[]> {
  return (await t.sql<{ action: string }[]>`select action from audit_log order by id`).map((r) => r.action);
}

async function aliceRow() {
  const [row] = await t.sql`select mfa_enabled, mfa_secret, mfa_pending_secret, mfa_last_step from users where email = ${alice.email}`;
  return row!;
}

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: SETUP }, { clock: { now: () => new Date(now) } });
  await t.sql`insert into app_settings (key, value) values ('rate_limit_profile', '"relaxed"')`;
  expect((await call("POST", "/bootstrap/initialize", undefined, { ...admin, setup_token: SETUP })).status).toBe(200);
  await t.sql`insert into users (email, password_hash, role) values (${alice.email}, ${await hashPassword(alice.password)}, 'editor')`;
  aliceToken = (await (await call("POST", "/auth/login", undefined, alice)).json()).token;
});
afterAll(async () => t.close());
// Every app.request() is one client to the rate limiter; each test starts with fresh counters.
beforeEach(async () => {
  await t.sql`delete from rate_limit_counters`;
});

describe("MFA enrolment", () => {
  it("refuses activation before setup (409) and setup without a credential (401)", async () => {
    expect((await call("POST", "/auth/mfa/activate", aliceToken, { code: "123456" })).status).toBe(409);
    expect((await call("POST", "/auth/mfa/setup")).status).toBe(401);
  });

  it("setup answers a pending secret and its otpauth URI; nothing is enabled yet", async () => {
    const res = await call("POST", "/auth/mfa/setup", aliceToken);
    expect(res.status).toBe(200);
    const body = await res.json();
    secret = body.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauth_uri).toContain(`otpauth://totp/Infrastructure%20Inventory:${encodeURIComponent(alice.email)}?secret=${secret}`);
    expect(await aliceRow()).toMatchObject({ mfa_enabled: false, mfa_secret: null, mfa_pending_secret: secret });
  });

  it("a wrong activation code is 422 on the code field and changes nothing", async () => {
    const res = await call("POST", "/auth/mfa/activate", aliceToken, { code: totpCode(secret, now + 10 * 60_000) });
    expect(res.status).toBe(422);
    expect((await res.json()).fields).toHaveProperty("code");
    expect(await aliceRow()).toMatchObject({ mfa_enabled: false, mfa_pending_secret: secret });
  });

  it("activation with a valid code enables MFA and shows 10 backup codes once, stored only hashed", async () => {
    const res = await call("POST", "/auth/mfa/activate", aliceToken, { code: code() });
    expect(res.status).toBe(200);
    backupCodes = (await res.json()).backup_codes;
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    expect(await aliceRow()).toMatchObject({
      mfa_enabled: true,
      mfa_secret: secret,
      mfa_pending_secret: null,
      mfa_last_step: Math.floor(now / 30_000),
    });
    const stored = await t.sql<{ code_hash: string }[]>`select code_hash from mfa_backup_codes`;
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored) {
      expect(code_hash).toMatch(/^sha256\$/);
      for (const plain of backupCodes) expect(code_hash).not.toContain(plain.replace(/-/g, ""));
    }
    expect((await call("POST", "/auth/mfa/setup", aliceToken)).status).toBe(409);
    expect((await call("POST", "/auth/mfa/activate", aliceToken, { code: code() })).status).toBe(409);
    expect(await auditActions()).toEqual(expect.arrayContaining(["mfa.setup", "mfa.enabled", "mfa.failed"]));
  });
});

describe("MFA sign-in", () => {
  it("login -> requires_mfa -> verify with a TOTP code -> a working session; the same code again is refused", async () => {
    nextStep();
    const first = await call("POST", "/auth/mfa/verify", undefined, { mfa_token: await mfaToken(), code: code() });
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toMatchObject({
      token: expect.any(String),
      csrf_token: expect.any(String),
      user: { email: alice.email, mfa_enabled: true },
    });
    expect((await call("GET", "/auth/me", body.token)).status).toBe(200);
    // The cookie session it starts takes writes with its csrf_token (bound to that session).
    const session = sessionCookies(first);
    expect(body.csrf_token).toBe(session.csrf);
    const write = await t.app.request("/api/v1/users/me", { method: "PATCH", ...json({ display_name: "Alice" }, csrfHeaders(session)) });
    expect(write.status).toBe(200);
    // Replay: the same code (same time step) with a fresh MFA token.
    const replay = await call("POST", "/auth/mfa/verify", undefined, { mfa_token: await mfaToken(), code: code() });
    expect(replay.status).toBe(401);
    expect(await auditActions()).toEqual(expect.arrayContaining(["login.mfa_required", "mfa.verified", "login"]));
  });

  it("a backup code signs in once only, and is marked used", async () => {
    const once = await call("POST", "/auth/mfa/verify", undefined, { mfa_token: await mfaToken(), code: backupCodes[0]!.toUpperCase() });
    expect(once.status).toBe(200);
    const twice = await call("POST", "/auth/mfa/verify", undefined, { mfa_token: await mfaToken(), code: backupCodes[0] });
    expect(twice.status).toBe(401);
    const [row] = await t.sql`select count(*)::int as n from mfa_backup_codes where used_at is not null`;
    expect(row!.n).toBe(1);
  });

  it("a wrong code is 401 and audited as mfa.failed", async () => {
    const before = (await auditActions()).filter((a) => a === "mfa.failed").length;
    const res = await call("POST", "/auth/mfa/verify", undefined, { mfa_token: await mfaToken(), code: "000000" });
    expect(res.status).toBe(401);
    expect((await res.json()).error_code).toBe("UNAUTHORIZED");
    expect((await auditActions()).filter((a) => a === "mfa.failed").length).toBe(before + 1);
  });

  it("an expired MFA token is refused; a malformed body is 422", async () => {
    const token = await mfaToken();
    now += 301_000;
    expect((await call("POST", "/auth/mfa/verify", undefined, { mfa_token: token, code: code() })).status).toBe(401);
    expect((await call("POST", "/auth/mfa/verify", undefined, { mfa_token: token })).status).toBe(422);
  });
});

describe("MFA token security", () => {
  it("an MFA token is not a session, and a session token is not an MFA token", async () => {
    const token = await mfaToken();
    expect((await call("GET", "/auth/me", token)).status).toBe(401);
    nextStep();
    const res = await call("POST", "/auth/mfa/verify", undefined, { mfa_token: aliceToken, code: code() });
    expect(res.status).toBe(401);
    // The code was not spent by the refused attempt.
    expect((await call("POST", "/auth/mfa/verify", undefined, { mfa_token: token, code: code() })).status).toBe(200);
  });

  it("/auth/mfa/verify is CSRF-exempt with a session cookie, while other MFA writes are not", async () => {
    const cookie = { cookie: `svc_session=${aliceToken}` };
    const setup = await t.app.request("/api/v1/auth/mfa/backup-codes/regenerate", { method: "POST", ...json({ code: "000000" }, cookie) });
    expect(setup.status).toBe(403);
    expect((await setup.json()).detail).toMatch(/CSRF/);
    const mfa_token = await mfaToken();
    const res = await t.app.request("/api/v1/auth/mfa/verify", { method: "POST", ...json({ mfa_token, code: backupCodes[1] }, cookie) });
    expect(res.status).toBe(200);
  });
});

describe("MFA maintenance", () => {
  it("regenerating needs a valid code; the old backup codes stop working, the new ones work", async () => {
    expect((await call("POST", "/auth/mfa/backup-codes/regenerate", aliceToken, { code: "000000" })).status).toBe(403);
    nextStep();
    const res = await call("POST", "/auth/mfa/backup-codes/regenerate", aliceToken, { code: code() });
    expect(res.status).toBe(200);
    const fresh: string[] = (await res.json()).backup_codes;
    expect(fresh).toHaveLength(10);
    expect((await call("POST", "/auth/mfa/verify", undefined, { mfa_token: await mfaToken(), code: backupCodes[2] })).status).toBe(401);
    expect((await call("POST", "/auth/mfa/verify", undefined, { mfa_token: await mfaToken(), code: fresh[0] })).status).toBe(200);
    backupCodes = fresh.slice(1);
    expect(await auditActions()).toContain("mfa.backup_codes_regenerated");
  });

  it("disabling needs the password and a code; a wrong one is 403, audited, and changes nothing", async () => {
    nextStep();
    const wrongPassword = await call("POST", "/auth/mfa/disable", aliceToken, { password: "not the password!", code: code() });
    expect(wrongPassword.status).toBe(403);
    const wrongCode = await call("POST", "/auth/mfa/disable", aliceToken, { password: alice.password, code: "000000" });
    expect(wrongCode.status).toBe(403);
    expect(await aliceRow()).toMatchObject({ mfa_enabled: true, mfa_secret: secret });
    expect(await auditActions()).toEqual(expect.arrayContaining(["mfa.disable_denied", "mfa.failed"]));
  });

  it("disabling clears the secret and the backup codes; login gives a session directly again", async () => {
    const res = await call("POST", "/auth/mfa/disable", aliceToken, { password: alice.password, code: code() });
    expect(res.status).toBe(200);
    expect(await aliceRow()).toMatchObject({ mfa_enabled: false, mfa_secret: null, mfa_pending_secret: null, mfa_last_step: null });
    const [row] = await t.sql`select count(*)::int as n from mfa_backup_codes`;
    expect(row!.n).toBe(0);
    expect(await auditActions()).toContain("mfa.disabled");
    const login = await call("POST", "/auth/login", undefined, alice);
    expect(await login.json()).toMatchObject({ token: expect.any(String), user: { mfa_enabled: false } });
    expect((await call("POST", "/auth/mfa/disable", aliceToken, { password: alice.password, code: code() })).status).toBe(409);
    expect((await call("POST", "/auth/mfa/backup-codes/regenerate", aliceToken, { code: code() })).status).toBe(409);
  });
});
