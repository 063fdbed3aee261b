// The CLI's browser sign-in (docs/adr/0504): the console's approval makes a one-time code bound to the
// PKCE challenge and the loopback redirect URI; the public exchange turns code + verifier into an API
// token once. Replays, wrong verifiers, other redirect URIs and expired codes are refused with the
// error envelope and audited; only loopback redirect URIs are taken; the approval is a CSRF-checked
// cookie write of a console session.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../../shared/auth/password.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { type CookieSession, csrfHeaders, sessionCookies } from "../../helpers/session-cookies.ts";

let a: Actors;
let editor: CookieSession;
const REDIRECT = "http://127.0.0.1:45123/callback";

const b64url = (b: Buffer) => b.toString("base64url");

interface Flow {
  verifier: string;
  state: string;
  request: Record<string, unknown>;
}

/** A fresh request as the CLI builds it: a verifier, its S256 challenge, a state. */
function flow(extra: Record<string, unknown> = {}): Flow {
  const verifier = b64url(randomBytes(32));
  const state = b64url(randomBytes(16));
  const challenge = b64url(createHash("sha256").update(verifier).digest());
  return {
    verifier,
    state,
    request: {
      redirect_uri: REDIRECT,
      state,
      client_name: "lab CLI on test-host",
      code_challenge: challenge,
      code_challenge_method: "S256",
      label: "lab CLI on test-host",
      ...extra,
    },
  };
}

async function signIn(email: string, password: string): Promise<CookieSession> {
  const res = await a.req("POST", "/api/v1/auth/login", undefined, { email, password });
  expect(res.status).toBe(200);
  return sessionCookies(res);
}

const approve = (body: Record<string, unknown>, s: CookieSession = editor) =>
  a.req("POST", "auth/cli-login/approve", undefined, body, csrfHeaders(s));

/** Approves `f` and answers the code the browser would bring back (checking the state came too). */
async function codeFor(f: Flow): Promise<string> {
  const res = await approve(f.request);
  expect(res.status).toBe(201);
  const to = new URL((await res.json()).redirect_to);
  expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
  expect(to.searchParams.get("state")).toBe(f.state);
  return to.searchParams.get("code")!;
}

const exchange = (code: string, code_verifier: string, redirect_uri = REDIRECT) =>
  a.req("POST", "auth/cli-login/token", undefined, { code, code_verifier, redirect_uri });

async function expectInvalidGrant(res: Response): Promise<void> {
  expect(res.status).toBe(400);
  const body = await res.json();
  expect(body).toMatchObject({ error_code: "BAD_REQUEST", error: "invalid_grant" });
  expect(body.detail).toEqual(expect.any(String));
}

async function lastRefusal(): Promise<string | undefined> {
  const [row] = await a.t.sql<{ reason: string }[]>`
    select diff->>'reason' as reason from audit_log where action = 'cli_login.refused' order by id desc limit 1`;
  return row?.reason;
}

beforeAll(async () => {
  a = await createActors();
  editor = await signIn("editor@example.com", "editor password for tests");
});
afterAll(async () => a.t.close());

describe("the code exchange", () => {
  it("approve, then exchange code + verifier: an API token with the user's own scopes, hashed at rest, shown once", async () => {
    const f = flow();
    const code = await codeFor(f);
    const res = await exchange(code, f.verifier);
    expect(res.status).toBe(201);
    const issued = await res.json();
    expect(issued.token).toMatch(/^svc_/);
    expect(issued.label).toBe("lab CLI on test-host");
    const me = await (await a.req("GET", "auth/me", issued.token)).json();
    expect(me.email).toBe("editor@example.com");
    expect(issued.scopes).toEqual(me.scopes);
    const [row] = await a.t.sql<{ token_hash: string }[]>`select token_hash from api_tokens where id = ${issued.id}`;
    expect(row!.token_hash).not.toContain(issued.token.slice(-20));
    const [stored] = await a.t.sql<{ code_hash: string; used: boolean }[]>`
      select code_hash, used_at is not null as used from cli_login_codes where token_id = ${issued.id}`;
    expect(stored!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.used).toBe(true);
    const actions = await a.t.sql<{ action: string }[]>`
      select action from audit_log where action in ('cli_login.approved', 'cli_login.exchanged', 'token.created') order by id desc limit 3`;
    expect(actions.map((r) => r.action).sort()).toEqual(["cli_login.approved", "cli_login.exchanged", "token.created"]);
  });

  it("gives the narrowed scopes and the expiry approved, and refuses scopes wider than the user's", async () => {
    const f = flow({ scopes: ["read:*"], expires_in_days: 30 });
    const issued = await (await exchange(await codeFor(f), f.verifier)).json();
    expect(issued.scopes).toEqual(["read:*"]);
    const days = (Date.parse(issued.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThanOrEqual(30);
    const wider = await approve(flow({ scopes: ["admin:*"] }).request);
    expect(wider.status).toBe(403);
  });

  it("a code works once: the replay is refused, audited, and revokes the token the first use issued", async () => {
    const f = flow();
    const code = await codeFor(f);
    const first = await (await exchange(code, f.verifier)).json();
    expect((await a.req("GET", "auth/me", first.token)).status).toBe(200);
    await expectInvalidGrant(await exchange(code, f.verifier));
    expect(await lastRefusal()).toBe("replayed");
    const [row] = await a.t.sql<{ revoked: boolean }[]>`select revoked_at is not null as revoked from api_tokens where id = ${first.id}`;
    expect(row!.revoked).toBe(true);
  });

  it("a wrong verifier is refused and audited, and burns the code (the right one fails after it)", async () => {
    const f = flow();
    const code = await codeFor(f);
    await expectInvalidGrant(await exchange(code, b64url(randomBytes(32))));
    expect(await lastRefusal()).toBe("wrong_verifier");
    await expectInvalidGrant(await exchange(code, f.verifier));
    expect(await lastRefusal()).toBe("replayed");
  });

  it("another redirect URI than the approved one is refused", async () => {
    const f = flow();
    await expectInvalidGrant(await exchange(await codeFor(f), f.verifier, "http://127.0.0.1:45124/callback"));
    expect(await lastRefusal()).toBe("redirect_uri_mismatch");
  });

  it("an expired code is refused and audited", async () => {
    const f = flow();
    const code = await codeFor(f);
    const hash = createHash("sha256").update(code).digest("hex");
    await a.t.sql`update cli_login_codes set expires_at = now() - interval '1 second' where code_hash = ${hash}`;
    await expectInvalidGrant(await exchange(code, f.verifier));
    expect(await lastRefusal()).toBe("expired");
  });

  it("checks the account again at the exchange: a narrowed role or a deactivated account gets no token", async () => {
    const hash = await hashPassword("ops password for tests", { iterations: 1000 });
    await a.t.sql`insert into users (email, password_hash, role) values ('ops@example.com', ${hash}, 'editor')`;
    const ops = await signIn("ops@example.com", "ops password for tests");
    const narrowed = flow();
    const res = await approve(narrowed.request, ops);
    const code = new URL((await res.json()).redirect_to).searchParams.get("code")!;
    await a.t.sql`update users set role = 'viewer' where email = 'ops@example.com'`;
    await expectInvalidGrant(await exchange(code, narrowed.verifier));
    expect(await lastRefusal()).toBe("scopes_narrowed");
    await a.t.sql`update users set role = 'editor' where email = 'ops@example.com'`;
    const disabled = flow();
    const again = new URL((await (await approve(disabled.request, ops)).json()).redirect_to).searchParams.get("code")!;
    await a.t.sql`update users set is_active = false where email = 'ops@example.com'`;
    await expectInvalidGrant(await exchange(again, disabled.verifier));
    expect(await lastRefusal()).toBe("account_disabled");
  });

  it("an unknown code is refused and audited; a malformed verifier is a 422", async () => {
    await expectInvalidGrant(await exchange(b64url(randomBytes(32)), b64url(randomBytes(32))));
    expect(await lastRefusal()).toBe("unknown_code");
    const short = await exchange(b64url(randomBytes(32)), "too-short");
    expect(short.status).toBe(422);
    expect((await short.json()).fields).toHaveProperty("code_verifier");
  });
});

describe("approval and denial", () => {
  it("takes only loopback redirect URIs (127.0.0.1 or [::1] with a port), for approval and denial alike", async () => {
    const refused = [
      "http://localhost:45123/callback",
      "https://127.0.0.1:45123/callback",
      "http://example.com:45123/callback",
      "http://127.0.0.2:45123/callback",
      "http://127.0.0.1/callback",
      "http://127.0.0.1:45123/callback?next=/",
      "http://127.0.0.1:45123/callback#x",
      "http://me@127.0.0.1:45123/callback",
      "javascript:alert(1)",
    ];
    for (const redirect_uri of refused) {
      const res = await approve(flow({ redirect_uri }).request);
      expect(res.status, redirect_uri).toBe(422);
      expect((await res.json()).fields, redirect_uri).toHaveProperty("redirect_uri");
      const { redirect_uri: _, ...denial } = flow().request;
      const deny = await a.req("POST", "auth/cli-login/deny", undefined, { ...denial, redirect_uri }, csrfHeaders(editor));
      expect(deny.status, redirect_uri).toBe(422);
    }
    const v6 = await approve(flow({ redirect_uri: "http://[::1]:45123/callback" }).request);
    expect(v6.status).toBe(201);
    expect((await v6.json()).redirect_to).toMatch(/^http:\/\/\[::1\]:45123\/callback\?code=/);
  });

  it("deny sends the browser back with error=access_denied and the state, creates nothing, and is audited", async () => {
    const f = flow();
    const before = await a.t.sql`select id from cli_login_codes`;
    const res = await a.req(
      "POST",
      "auth/cli-login/deny",
      undefined,
      { redirect_uri: REDIRECT, state: f.state, client_name: "lab CLI" },
      csrfHeaders(editor),
    );
    expect(res.status).toBe(200);
    const to = new URL((await res.json()).redirect_to);
    expect(to.searchParams.get("error")).toBe("access_denied");
    expect(to.searchParams.get("state")).toBe(f.state);
    expect(to.searchParams.has("code")).toBe(false);
    expect((await a.t.sql`select id from cli_login_codes`).length).toBe(before.length);
    const [audit] = await a.t.sql`select action from audit_log where action = 'cli_login.denied'`;
    expect(audit).toBeDefined();
  });

  it("is a CSRF-checked cookie write: without the session's X-CSRF-Token it is 403", async () => {
    const res = await a.req("POST", "auth/cli-login/approve", undefined, flow().request, { cookie: editor.cookie });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toMatch(/^CSRF check failed/);
    const other = await signIn("viewer@example.com", "viewer password for tests");
    const swapped = await a.req("POST", "auth/cli-login/approve", undefined, flow().request, {
      cookie: editor.cookie,
      "x-csrf-token": other.csrf,
    });
    expect(swapped.status).toBe(403);
    const deny = await a.req("POST", "auth/cli-login/deny", undefined, flow().request, { cookie: editor.cookie });
    expect(deny.status).toBe(403);
  });

  it("needs a console session: anonymous is 401, an API token is 403", async () => {
    expect((await a.req("POST", "auth/cli-login/approve", undefined, flow().request)).status).toBe(401);
    const minted = await a.req("POST", "auth/api-token", a.admin, { label: "automation" });
    const { token } = await minted.json();
    const res = await a.req("POST", "auth/cli-login/approve", token, flow().request);
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toMatch(/console/);
  });
});
