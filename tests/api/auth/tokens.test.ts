// API tokens and service accounts: POST /auth/api-token, GET /auth/api-tokens, DELETE and rotate,
// POST /auth/service-account, GET /auth/scopes, last_used_at throttling and the deprecated SVC_API_TOKEN.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { base32ToBytes } from "../../../shared/auth/encoding.ts";
import { GRANTABLE_SCOPES, ROLE_SCOPES } from "../../../shared/auth/scopes.ts";
import { cryptoRandom } from "../../../shared/clock.ts";
import { changeCredentials, createTestApp, json, type TestApp } from "../../helpers/app.ts";

const SETUP = "setup-token-for-token-tests";
const LEGACY = "legacy-static-token-0123456789";
const admin = { email: "root@example.com", password: "a very long admin password" };

let t: TestApp;
let adminJwt: string;
let viewer: Issued;
let editor: Issued;
// Each test case counts as its own client for the rate limiter (all app.request() calls share one otherwise).
let peer = 0;

interface Issued {
  id: number;
  token: string;
  label: string;
  scopes: string[];
  expires_at: string | null;
  created_at: string;
  prefix: string;
}

async function initializeAdmin(app: TestApp): Promise<string> {
  await app.sql`insert into app_settings (key, value) values ('rate_limit_profile', '"relaxed"')`;
  const res = await app.app.request("/api/v1/bootstrap/initialize", { method: "POST", ...json({ ...admin, setup_token: SETUP }) });
  expect(res.status).toBe(200);
  return (await res.json()).token;
}

async function call(method: string, path: string, token?: string, body?: unknown): Promise<Response> {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const init = body === undefined ? { headers: auth } : json(body, auth);
  return t.app.request(`/api/v1${path}`, { method, ...init });
}

async function mint(token: string, body: Record<string, unknown>): Promise<Issued> {
  const res = await call("POST", "/auth/api-token", token, body);
  expect(res.status).toBe(201);
  return res.json();
}

/** A service account whose token has its role's scopes plus write:tokens, so it may mint and rotate. */
async function serviceAccount(name: string, role: "viewer" | "editor"): Promise<Issued> {
  const res = await call("POST", "/auth/service-account", adminJwt, { name, role, scopes: [...ROLE_SCOPES[role], "write:tokens"] });
  expect(res.status).toBe(201);
  return (await res.json()).token;
}

async function tokenCount(): Promise<number> {
  const [row] = await t.sql<{ n: number }[]>`select count(*)::int as n from api_tokens`;
  return row!.n;
}

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: SETUP, SVC_API_TOKEN: LEGACY }, { peerAddress: () => `198.51.100.${peer}` });
  adminJwt = await initializeAdmin(t);
  viewer = await serviceAccount("Viewer Bot", "viewer");
  editor = await serviceAccount("Editor Bot", "editor");
});
afterAll(async () => t.close());
beforeEach(() => {
  peer++;
});

describe("POST /auth/api-token", () => {
  it("creates a token shown once, stored only as salt:hmac, working as a bearer with exactly its scopes", async () => {
    const created = await mint(adminJwt, { label: "deploy", scopes: ["read:*", "write:hardware"] });
    expect(created).toMatchObject({ label: "deploy", scopes: ["read:*", "write:hardware"], expires_at: null });
    expect(created.token).toMatch(new RegExp(`^svc_${created.prefix}_[A-Za-z0-9_-]{43}$`));
    const [row] = await t.sql<{ token_hash: string }[]>`select token_hash from api_tokens where id = ${created.id}`;
    expect(row!.token_hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{64}$/);
    // The secret is everything after `svc_<8-char prefix>_` (it may itself contain "_").
    expect(row!.token_hash).not.toContain(created.token.slice("svc_".length + 8 + 1));
    const me = await call("GET", "/auth/me", created.token);
    expect(me.status).toBe(200);
    expect((await me.json()).scopes).toEqual(["read:*", "write:hardware"]);
  });

  it("defaults to the creator's role scopes and accepts expires_in_days", async () => {
    const before = Date.now();
    const created = await mint(adminJwt, { label: "default scopes", expires_in_days: 30 });
    expect(created.scopes).toEqual(["read:*", "write:*", "delete:*", "admin:*"]);
    const expires = new Date(created.expires_at!).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
  });

  it("a token creating a token: the default is that token's scopes, never the role's", async () => {
    const readOnly = await mint(adminJwt, { label: "read only", scopes: ["read:*", "write:tokens"] });
    const child = await mint(readOnly.token, { label: "child" });
    expect(child.scopes).toEqual(["read:*", "write:tokens"]);
  });

  it("is audited as token.created with no secret or hash in the entry", async () => {
    const created = await mint(adminJwt, { label: "audited", scopes: ["read:*"] });
    const [entry] = await t.sql<{ diff: unknown; category: string }[]>`
      select diff, category from audit_log where action = 'token.created' and entity_id = ${String(created.id)}`;
    expect(entry!.category).toBe("security");
    const text = JSON.stringify(entry!.diff);
    expect(text).toContain(created.prefix);
    expect(text).not.toContain(created.token);
    const [row] = await t.sql<{ token_hash: string }[]>`select token_hash from api_tokens where id = ${created.id}`;
    expect(text).not.toContain(row!.token_hash.split(":")[1]);
  });

  it("bad input is a 422 naming the field, and nothing is created", async () => {
    const before = await tokenCount();
    const past = new Date(Date.now() - 60_000).toISOString();
    const cases: [Record<string, unknown>, string][] = [
      [{ label: "" }, "label"],
      [{ label: "x".repeat(101) }, "label"],
      [{ label: "bad scope", scopes: ["write:Hardware"] }, "scopes.0"],
      [{ label: "bad scope", scopes: ["read:*", "root"] }, "scopes.1"],
      [{ label: "no scopes", scopes: [] }, "scopes"],
      [{ label: "both", expires_at: "2099-01-01T00:00:00Z", expires_in_days: 3 }, "expires_in_days"],
      [{ label: "past", expires_at: past }, "expires_at"],
      [{ label: "not a date", expires_at: "tomorrow" }, "expires_at"],
      [{ label: "zero days", expires_in_days: 0 }, "expires_in_days"],
      [{ label: "too long", expires_in_days: 3651 }, "expires_in_days"],
    ];
    for (const [body, field] of cases) {
      const res = await call("POST", "/auth/api-token", adminJwt, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const answer = await res.json();
      expect(answer.error_code).toBe("VALIDATION_ERROR");
      expect(answer.fields, JSON.stringify(body)).toHaveProperty([field]);
    }
    const named = await (await call("POST", "/auth/api-token", adminJwt, { label: "x", scopes: ["root"] })).json();
    expect(named.fields["scopes.0"]).toContain('"root"');
    expect(await tokenCount()).toBe(before);
  });

  it("needs a credential", async () => {
    const res = await call("POST", "/auth/api-token", undefined, { label: "anon" });
    expect(res.status).toBe(401);
    expect((await res.json()).error_code).toBe("UNAUTHORIZED");
  });

  it("a viewer token cannot create a token with write:*; an editor cannot mint admin:*", async () => {
    const before = await tokenCount();
    const v = await call("POST", "/auth/api-token", viewer.token, { label: "escalate", scopes: ["write:*"] });
    expect(v.status).toBe(403);
    expect(await v.json()).toMatchObject({ error_code: "PERMISSION_DENIED", detail: expect.stringContaining("write:*") });
    const e = await call("POST", "/auth/api-token", editor.token, { label: "escalate", scopes: ["read:*", "admin:*"] });
    expect(e.status).toBe(403);
    expect((await e.json()).detail).toContain("admin:*");
    const star = await call("POST", "/auth/api-token", editor.token, { label: "escalate", scopes: ["*:*"] });
    expect(star.status).toBe(403);
    expect(await tokenCount()).toBe(before);
    // Within their own grant they may.
    expect((await mint(editor.token, { label: "narrow", scopes: ["write:hardware"] })).scopes).toEqual(["write:hardware"]);
  });

  it("a read-only token of an administrator cannot mint write:hardware (the token narrows the role)", async () => {
    const readOnly = await mint(adminJwt, { label: "ro", scopes: ["read:*", "write:tokens"] });
    const res = await call("POST", "/auth/api-token", readOnly.token, { label: "wider", scopes: ["write:hardware"] });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toContain("write:hardware");
  });

  it("retries once on a prefix collision, and answers 409 with nothing written when the retry collides too", async () => {
    const existing = await mint(adminJwt, { label: "existing", scopes: ["read:*"] });
    const collide = base32ToBytes(existing.prefix)!;
    const real = t.runtime.deps.random;
    const collisions = (n: number) => {
      let left = n;
      return { ...cryptoRandom, bytes: (k: number) => (k === 5 && left-- > 0 ? collide.slice() : cryptoRandom.bytes(k)) };
    };
    try {
      t.runtime.deps.random = collisions(1);
      const retried = await mint(adminJwt, { label: "after one collision", scopes: ["read:*"] });
      expect(retried.prefix).not.toBe(existing.prefix);
      expect((await call("GET", "/auth/me", retried.token)).status).toBe(200);
      const before = await tokenCount();
      t.runtime.deps.random = collisions(2);
      const twice = await call("POST", "/auth/api-token", adminJwt, { label: "two collisions", scopes: ["read:*"] });
      expect(twice.status).toBe(409);
      expect(await tokenCount()).toBe(before);
    } finally {
      t.runtime.deps.random = real;
    }
    expect((await call("GET", "/auth/me", existing.token)).status).toBe(200);
  });
});

describe("GET /auth/api-tokens", () => {
  it("lists the caller's own tokens, never the hash or the secret", async () => {
    const own = await mint(viewer.token, { label: "viewer's own", scopes: ["read:*"] });
    const res = await call("GET", "/auth/api-tokens", viewer.token);
    expect(res.status).toBe(200);
    const list = await res.json();
    expect(list.map((x: { id: number }) => x.id).sort()).toEqual([viewer.id, own.id].sort());
    const item = list.find((x: { id: number }) => x.id === own.id);
    expect(Object.keys(item).sort()).toEqual(
      ["created_at", "email", "expired", "expires_at", "id", "label", "last_used_at", "prefix", "revoked_at", "scopes", "user_id"].sort(),
    );
    expect(item).toMatchObject({ label: "viewer's own", prefix: own.prefix, scopes: ["read:*"], expired: false, revoked_at: null });
    expect(JSON.stringify(list)).not.toContain(own.token);
  });

  it("?all=true lists everyone's tokens for an administrator, and is 403 for anyone else", async () => {
    const all = await call("GET", "/auth/api-tokens?all=true", adminJwt);
    expect(all.status).toBe(200);
    const emails = new Set((await all.json()).map((x: { email: string }) => x.email));
    expect(emails).toContain("viewer-bot@service-accounts.invalid");
    expect(emails).toContain(admin.email);
    expect((await call("GET", "/auth/api-tokens?all=true", viewer.token)).status).toBe(403);
    expect((await call("GET", "/auth/api-tokens?all=maybe", adminJwt)).status).toBe(422);
    expect((await call("GET", "/auth/api-tokens")).status).toBe(401);
  });
});

describe("DELETE /auth/api-tokens/{token_id}", () => {
  it("revokes: the very next request with the token is 401, and it is audited", async () => {
    const token = await mint(adminJwt, { label: "to revoke", scopes: ["read:*"] });
    expect((await call("GET", "/auth/me", token.token)).status).toBe(200);
    const res = await call("DELETE", `/auth/api-tokens/${token.id}`, adminJwt);
    expect(res.status).toBe(200);
    expect((await res.json()).detail).toContain(String(token.id));
    const after = await call("GET", "/auth/me", token.token);
    expect(after.status).toBe(401);
    expect((await after.json()).detail).toContain("revoked");
    const audit = await t.sql`select 1 from audit_log where action = 'token.revoked' and entity_id = ${String(token.id)}`;
    expect(audit.length).toBe(1);
    // Revoking again is harmless and not audited twice.
    expect((await call("DELETE", `/auth/api-tokens/${token.id}`, adminJwt)).status).toBe(200);
    expect((await t.sql`select 1 from audit_log where action = 'token.revoked' and entity_id = ${String(token.id)}`).length).toBe(1);
  });

  it("a token can revoke itself", async () => {
    const token = await mint(viewer.token, { label: "self", scopes: ["read:*"] });
    expect((await call("DELETE", `/auth/api-tokens/${token.id}`, token.token)).status).toBe(200);
    expect((await call("GET", "/auth/me", token.token)).status).toBe(401);
  });

  it("someone else's token is 404 for a non-admin, and revocable by an administrator", async () => {
    const editors = await mint(editor.token, { label: "editor's", scopes: ["read:*"] });
    const res = await call("DELETE", `/auth/api-tokens/${editors.id}`, viewer.token);
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe(`API token ${editors.id} was not found.`);
    expect((await call("GET", "/auth/me", editors.token)).status).toBe(200);
    expect((await call("DELETE", `/auth/api-tokens/${editors.id}`, adminJwt)).status).toBe(200);
    expect((await call("GET", "/auth/me", editors.token)).status).toBe(401);
  });

  it("unknown ids are 404, malformed ids 422, no credential 401", async () => {
    expect((await call("DELETE", "/auth/api-tokens/999999", adminJwt)).status).toBe(404);
    expect((await call("DELETE", "/auth/api-tokens/abc", adminJwt)).status).toBe(422);
    expect((await call("DELETE", `/auth/api-tokens/${viewer.id}`)).status).toBe(401);
  });

  it("a narrow token cannot revoke a wider token of the same user", async () => {
    const wide = await mint(adminJwt, { label: "wide" });
    const narrow = await mint(adminJwt, { label: "narrow", scopes: ["read:*"] });
    expect((await call("DELETE", `/auth/api-tokens/${wide.id}`, narrow.token)).status).toBe(403);
    expect((await call("GET", "/auth/me", wide.token)).status).toBe(200);
  });
});

describe("POST /auth/api-tokens/{token_id}/rotate", () => {
  it("gives a new secret and prefix on the same row; the old secret fails on the very next request", async () => {
    const old = await mint(adminJwt, { label: "rotating", scopes: ["read:*", "write:docs"], expires_in_days: 10 });
    const res = await call("POST", `/auth/api-tokens/${old.id}/rotate`, adminJwt);
    expect(res.status).toBe(200);
    const rotated: Issued = await res.json();
    expect(rotated).toMatchObject({
      id: old.id,
      label: old.label,
      scopes: old.scopes,
      expires_at: old.expires_at,
      created_at: old.created_at,
    });
    expect(rotated.prefix).not.toBe(old.prefix);
    expect(rotated.token).not.toBe(old.token);
    const stale = await call("GET", "/auth/me", old.token);
    expect(stale.status).toBe(401);
    expect((await call("GET", "/auth/me", rotated.token)).status).toBe(200);
    const [entry] = await t.sql<
      { diff: unknown }[]
    >`select diff from audit_log where action = 'token.rotated' and entity_id = ${String(old.id)}`;
    expect(entry!.diff).toMatchObject({ before: { prefix: old.prefix }, after: { prefix: rotated.prefix } });
    expect(JSON.stringify(entry!.diff)).not.toContain(rotated.token);
  });

  it("a token can rotate itself: it stops working at once", async () => {
    const self = await mint(viewer.token, { label: "self-rotate", scopes: ["read:*", "write:tokens"] });
    const res = await call("POST", `/auth/api-tokens/${self.id}/rotate`, self.token);
    expect(res.status).toBe(200);
    expect((await call("GET", "/auth/me", self.token)).status).toBe(401);
    expect((await call("GET", "/auth/me", (await res.json()).token)).status).toBe(200);
  });

  it("refuses revoked tokens (409), other users' tokens (404) and wider tokens from a narrow one (403)", async () => {
    const revoked = await mint(adminJwt, { label: "dead", scopes: ["read:*"] });
    await call("DELETE", `/auth/api-tokens/${revoked.id}`, adminJwt);
    expect((await call("POST", `/auth/api-tokens/${revoked.id}/rotate`, adminJwt)).status).toBe(409);
    const editors = await mint(editor.token, { label: "editor's", scopes: ["read:*"] });
    expect((await call("POST", `/auth/api-tokens/${editors.id}/rotate`, viewer.token)).status).toBe(404);
    const wide = await mint(adminJwt, { label: "wide" });
    const narrow = await mint(adminJwt, { label: "narrow", scopes: ["read:*"] });
    const res = await call("POST", `/auth/api-tokens/${wide.id}/rotate`, narrow.token);
    expect(res.status).toBe(403);
    expect((await call("GET", "/auth/me", wide.token)).status).toBe(200);
    expect((await call("POST", `/auth/api-tokens/${wide.id}/rotate`)).status).toBe(401);
  });
});

describe("expiry and last use", () => {
  it("an expired token is 401 and listed as expired", async () => {
    const token = await mint(viewer.token, { label: "expiring", scopes: ["read:*"], expires_in_days: 1 });
    expect((await call("GET", "/auth/me", token.token)).status).toBe(200);
    await changeCredentials(t, () => t.sql`update api_tokens set expires_at = now() - interval '1 second' where id = ${token.id}`);
    const res = await call("GET", "/auth/me", token.token);
    expect(res.status).toBe(401);
    expect((await res.json()).detail).toContain("expired");
    const list = await (await call("GET", "/auth/api-tokens", viewer.token)).json();
    expect(list.find((x: { id: number }) => x.id === token.id).expired).toBe(true);
    expect((await call("POST", `/auth/api-tokens/${token.id}/rotate`, viewer.token)).status).toBe(409);
  });

  it("last_used_at is written on use and not rewritten within a minute", async () => {
    const token = await mint(viewer.token, { label: "touch", scopes: ["read:*"] });
    const read = async () => (await t.sql<{ at: Date | null }[]>`select last_used_at as at from api_tokens where id = ${token.id}`)[0]!.at;
    expect(await read()).toBeNull();
    await call("GET", "/auth/me", token.token);
    const first = await read();
    expect(first).toBeInstanceOf(Date);
    await new Promise((r) => setTimeout(r, 20));
    await call("GET", "/auth/me", token.token);
    expect((await read())!.getTime()).toBe(first!.getTime());
    // Older than a minute: the next use writes it again.
    await t.sql`update api_tokens set last_used_at = now() - interval '2 minutes' where id = ${token.id}`;
    // As if the cached resolution had expired (last use is not a credential change, so nothing flushes it).
    t.runtime.deps.credentialCache?.flush();
    const stale = await read();
    await call("GET", "/auth/me", token.token);
    expect((await read())!.getTime()).toBeGreaterThan(stale!.getTime());
  });
});

describe("POST /auth/service-account", () => {
  it("creates a password-less service-account user and its first token", async () => {
    const res = await call("POST", "/auth/service-account", adminJwt, {
      name: "CI Deployer",
      role: "editor",
      scopes: ["read:*", "write:hardware"],
      expires_in_days: 90,
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.user).toMatchObject({
      email: "ci-deployer@service-accounts.invalid",
      display_name: "CI Deployer",
      role: "editor",
      is_service_account: true,
    });
    expect(body.token).toMatchObject({ label: "CI Deployer", scopes: ["read:*", "write:hardware"] });
    const [row] = await t.sql<{ password_hash: string | null; is_service_account: boolean }[]>`
      select password_hash, is_service_account from users where id = ${body.user.id}`;
    expect(row).toEqual({ password_hash: null, is_service_account: true });
    const me = await (await call("GET", "/auth/me", body.token.token)).json();
    expect(me).toMatchObject({ id: body.user.id, is_service_account: true, scopes: ["read:*", "write:hardware"] });
    const actions = (
      await t.sql<{ action: string }[]>`select action from audit_log where entity_id in (${String(body.user.id)}, ${String(body.token.id)})`
    ).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["service_account.created", "token.created"]));
  });

  it("cannot sign in with a password", async () => {
    const res = await call("POST", "/auth/login", undefined, {
      email: "viewer-bot@service-accounts.invalid",
      password: "anything at all here",
    });
    expect(res.status).toBe(401);
  });

  it("is admin-only, refuses duplicates, bad names and scopes wider than its role", async () => {
    expect((await call("POST", "/auth/service-account", editor.token, { name: "sneaky" })).status).toBe(403);
    expect((await call("POST", "/auth/service-account", viewer.token, { name: "sneaky" })).status).toBe(403);
    expect((await call("POST", "/auth/service-account", undefined, { name: "sneaky" })).status).toBe(401);
    const dup = await call("POST", "/auth/service-account", adminJwt, { name: "viewer  bot!" });
    expect(dup.status).toBe(409);
    expect((await dup.json()).detail).toContain("viewer-bot@service-accounts.invalid");
    const wide = await call("POST", "/auth/service-account", adminJwt, { name: "wide", role: "viewer", scopes: ["write:*"] });
    expect(wide.status).toBe(422);
    expect((await wide.json()).fields).toHaveProperty("scopes");
    expect((await call("POST", "/auth/service-account", adminJwt, { name: "!!!" })).status).toBe(422);
    expect((await call("POST", "/auth/service-account", adminJwt, { name: "x", role: "demo" })).status).toBe(422);
    expect((await call("POST", "/auth/service-account", adminJwt, {})).status).toBe(422);
    const created = await t.sql`select 1 from users where email in ('sneaky@service-accounts.invalid', 'wide@service-accounts.invalid')`;
    expect(created.length).toBe(0);
  });

  it("an admin service account only from a caller whose credential covers admin", async () => {
    const adminOnly = await mint(adminJwt, { label: "admin only", scopes: ["admin:*"] });
    const res = await call("POST", "/auth/service-account", adminOnly.token, { name: "root bot", role: "admin" });
    expect(res.status).toBe(403);
    const ok = await call("POST", "/auth/service-account", adminJwt, { name: "root bot", role: "admin" });
    expect(ok.status).toBe(201);
    expect((await ok.json()).token.scopes).toEqual(["read:*", "write:*", "delete:*", "admin:*"]);
  });
});

describe("GET /auth/scopes", () => {
  it("lists the grantable scopes with descriptions and the roles with their default scopes", async () => {
    const res = await call("GET", "/auth/scopes", viewer.token);
    expect(res.status).toBe(200);
    const body = await res.json();
    // The list itself is pinned by tests/unit/auth/scopes.test.ts.
    expect(body.scopes.map((s: { scope: string }) => s.scope)).toEqual([...GRANTABLE_SCOPES]);
    for (const s of body.scopes) expect(s.description.length).toBeGreaterThan(5);
    const editorRole = body.roles.find((r: { name: string }) => r.name === "editor");
    expect(editorRole).toMatchObject({ built_in: true, id: null });
    expect(editorRole.scopes).toContain("write:hardware");
    expect((await call("GET", "/auth/scopes")).status).toBe(401);
  });
});

describe("credentials without a user: the deprecated SVC_API_TOKEN and the first-run grant", () => {
  it("is answered 401 without SVC_LEGACY_AUTH", async () => {
    const res = await call("GET", "/auth/api-tokens?all=true", LEGACY);
    expect(res.status).toBe(401);
    expect((await res.json()).detail).toContain("deprecated");
  });

  it("restores the old grant with SVC_LEGACY_AUTH=true, but mints no token (it has no user)", async () => {
    const legacy = await createTestApp({ SVC_SETUP_TOKEN: SETUP, SVC_API_TOKEN: LEGACY, SVC_LEGACY_AUTH: "true" });
    try {
      // Before first run, /auth/* answers with the set-up grant (the setup token's), which manages and mints no tokens.
      const setup = { "x-setup-token": SETUP };
      expect((await legacy.app.request("/api/v1/auth/api-tokens?all=true", { headers: setup })).status).toBe(403);
      expect((await legacy.app.request("/api/v1/auth/api-tokens/1", { method: "DELETE", headers: setup })).status).toBe(403);
      expect((await legacy.app.request("/api/v1/auth/service-account", { method: "POST", ...json({ name: "early" }, setup) })).status).toBe(
        403,
      );
      await initializeAdmin(legacy);
      const headers = { authorization: `Bearer ${LEGACY}` };
      expect((await legacy.app.request("/api/v1/auth/api-tokens?all=true", { headers })).status).toBe(200);
      const mintRes = await legacy.app.request("/api/v1/auth/api-token", { method: "POST", ...json({ label: "legacy" }, headers) });
      expect(mintRes.status).toBe(403);
      expect(
        (await legacy.app.request("/api/v1/auth/api-tokens?all=true", { headers: { authorization: "Bearer not-the-token" } })).status,
      ).toBe(401);
    } finally {
      await legacy.close();
    }
  });
});
