// /admin/invites* and POST /auth/accept-invite: single use, expiry, revocation, no secrets at rest.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
const PASSWORD = "invited user password 1";
const INVALID = "The invite is invalid or has expired.";

async function invite(email: string, extra: Record<string, unknown> = {}) {
  const res = await a.req("POST", "/api/v1/admin/invites", a.admin, { email, role: "viewer", ...extra });
  expect(res.status).toBe(201);
  return res.json();
}
const accept = (token: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  a.req("POST", "/api/v1/auth/accept-invite", undefined, { token, password: PASSWORD, ...extra }, headers);

async function expectInvalid(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  expect((await res.json()).detail).toBe(INVALID);
}

beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a.t.close());

describe("security", () => {
  it("editor and viewer tokens get 403 on every invite route; no token gets 401", async () => {
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/v1/admin/invites"],
      ["POST", "/api/v1/admin/invites", { email: "x@example.com", role: "viewer" }],
      ["PATCH", "/api/v1/admin/invites/1", { revoke: true }],
    ];
    for (const [method, path, body] of routes) {
      for (const token of [a.editor, a.viewer]) expect((await a.req(method, path, token, body)).status, `${method} ${path}`).toBe(403);
      expect((await a.req(method, path, undefined, body)).status).toBe(401);
    }
    expect((await a.t.sql`select 1 from invites`).length).toBe(0);
  });
});

describe("POST /admin/invites", () => {
  it("answers the token once with its link; stores only the prefix and a salted hash; audited without the token", async () => {
    const before = Date.now();
    const inv = await invite("Ann@Example.com", { role: "editor" });
    expect(inv).toMatchObject({ email: "ann@example.com", role: "editor", status: "pending", accepted_at: null, revoked_at: null });
    expect(inv.token).toMatch(/^inv_[a-z2-7]{8}_[A-Za-z0-9_-]{43}$/);
    expect(inv.invite_url).toBe(`/accept-invite?token=${encodeURIComponent(inv.token)}`);
    // Default expiry: the invite_expiry_hours setting (72).
    const expires = Date.parse(inv.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 72 * 3_600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 72 * 3_600_000 + 1000);
    const [row] = await a.t.sql`select prefix, token_hash from invites where id = ${inv.id}`;
    expect(inv.token.split("_")[1]).toBe(row!.prefix);
    expect(row!.token_hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{64}$/);
    const leaks = await a.t.sql`select 1 from audit_log where diff::text like ${`%${inv.token.slice("inv_".length + 8 + 1)}%`}`;
    expect(leaks.length).toBe(0);
    const [entry] = await a.t.sql`select action from audit_log where action = 'invite.created' and entity_id = ${String(inv.id)}`;
    expect(entry).toBeTruthy();
  });

  it("refuses an existing user's email, a second open invite, unknown roles and bad expiries", async () => {
    const cases: [unknown, number, string?][] = [
      [{ email: "viewer@example.com", role: "viewer" }, 409],
      [{ email: "ANN@example.com", role: "viewer" }, 409],
      [{ email: "bob@example.com", role: "wizard" }, 422, "role"],
      [{ email: "bob@example.com", role: "viewer", expires_in_hours: 0 }, 422, "expires_in_hours"],
      [{ email: "bob@example.com", role: "viewer", expires_in_hours: 100000 }, 422, "expires_in_hours"],
      [{ email: "bob", role: "viewer" }, 422, "email"],
      [{ email: "bob@example.com", role: "viewer", token: "mine" }, 422, "token"],
    ];
    for (const [body, status, field] of cases) {
      const res = await a.req("POST", "/api/v1/admin/invites", a.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (field) expect((await res.json()).fields).toHaveProperty(field);
    }
  });

  it("the list shows state and never a token or hash", async () => {
    const res = await a.req("GET", "/api/v1/admin/invites?q=ann", a.admin);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ total: 1, limit: 25, offset: 0, sort: "created_at", direction: "asc" });
    expect(body.items[0]).toMatchObject({ email: "ann@example.com", status: "pending" });
    expect(JSON.stringify(body)).not.toMatch(/inv_|token/);
    expect((await a.req("GET", "/api/v1/admin/invites?status=bogus", a.admin)).status).toBe(422);
  });
});

describe("POST /auth/accept-invite", () => {
  it("creates the account with the invite's role and signs in; single use", async () => {
    const inv = await invite("carol@example.com", { role: "editor" });
    const res = await accept(inv.token, { display_name: "Carol" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user).toMatchObject({ email: "carol@example.com", role: "editor", display_name: "Carol", must_change_password: false });
    expect(res.headers.getSetCookie().some((c) => c.startsWith("svc_session="))).toBe(true);
    expect((await (await a.req("GET", "/api/v1/auth/me", body.token)).json()).email).toBe("carol@example.com");
    const listed = await (await a.req("GET", "/api/v1/admin/invites?status=accepted", a.admin)).json();
    expect(listed.items.map((i: any) => i.id)).toEqual([inv.id]);
    const actions = (
      await a.t.sql`select action from audit_log where entity_id in (${String(inv.id)}, ${String(body.user.id)}) order by id`
    ).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["invite.accepted", "login.invite"]));
    // Second use: the same answer as for any dead token.
    await expectInvalid(await accept(inv.token, { password: "another password 12" }));
    // The new editor is still not an administrator.
    expect((await a.req("GET", "/api/v1/admin/invites", body.token)).status).toBe(403);
  });

  it("an expired invite is refused; extending it revives it", async () => {
    const inv = await invite("dave@example.com");
    await a.t.sql`update invites set expires_at = now() - interval '1 minute' where id = ${inv.id}`;
    await expectInvalid(await accept(inv.token));
    const ext = await a.req("PATCH", `/api/v1/admin/invites/${inv.id}`, a.admin, { expires_in_hours: 2 });
    expect(ext.status).toBe(200);
    const extended = await ext.json();
    expect(extended.status).toBe("pending");
    expect(Math.abs(Date.parse(extended.expires_at) - (Date.now() + 2 * 3_600_000))).toBeLessThan(5000);
    expect((await accept(inv.token)).status).toBe(200);
    // Accepted invites are history.
    expect((await a.req("PATCH", `/api/v1/admin/invites/${inv.id}`, a.admin, { revoke: true })).status).toBe(409);
  });

  it("a revoked invite is refused; revoking again is harmless, extending it is a conflict", async () => {
    const inv = await invite("erin@example.com");
    const res = await a.req("PATCH", `/api/v1/admin/invites/${inv.id}`, a.admin, { revoke: true });
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe("revoked");
    await expectInvalid(await accept(inv.token));
    expect((await a.req("PATCH", `/api/v1/admin/invites/${inv.id}`, a.admin, { revoke: true })).status).toBe(200);
    expect((await a.req("PATCH", `/api/v1/admin/invites/${inv.id}`, a.admin, { expires_in_hours: 5 })).status).toBe(409);
    // With the old one revoked, the address can be invited again.
    await invite("erin@example.com");
  });

  it("unknown, tampered and malformed tokens get the same 401; failures are audited with the reason", async () => {
    const inv = await invite("frank@example.com");
    const tampered = inv.token.slice(0, -1) + (inv.token.endsWith("A") ? "B" : "A");
    for (const token of [tampered, `inv_aaaaaaaa_${"A".repeat(43)}`, "not-a-token"]) await expectInvalid(await accept(token));
    const reasons = (await a.t.sql`select diff->>'reason' as reason from audit_log where action = 'invite.accept_failed'`).map(
      (r) => r.reason,
    );
    expect(reasons).toEqual(expect.arrayContaining(["unknown token", "expired", "revoked", "accepted"]));
    // The real token still works after all that.
    expect((await accept(inv.token)).status).toBe(200);
  });

  it("a weak password is a 422 and leaves the invite usable; CSRF does not apply", async () => {
    const inv = await invite("gina@example.com");
    const weak = await accept(inv.token, { password: "short" });
    expect(weak.status).toBe(422);
    expect((await weak.json()).fields).toHaveProperty("password");
    const same = await accept(inv.token, { password: "gina@example.com" });
    expect(same.status).toBe(422);
    // A stray session cookie without X-CSRF-Token: the route is CSRF-exempt (spec 5.3).
    const res = await accept(inv.token, {}, { cookie: "svc_session=stale; svc_csrf=x" });
    expect(res.status).toBe(200);
  });
});

describe("PATCH /admin/invites/{id}", () => {
  it("needs exactly one of revoke or expires_in_hours; unknown ids are 404", async () => {
    const inv = await invite("hank@example.com");
    for (const body of [{}, { revoke: true, expires_in_hours: 2 }, { revoke: false }, { expires_in_hours: 0 }]) {
      expect((await a.req("PATCH", `/api/v1/admin/invites/${inv.id}`, a.admin, body)).status, JSON.stringify(body)).toBe(422);
    }
    const missing = await a.req("PATCH", "/api/v1/admin/invites/99999", a.admin, { revoke: true });
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toBe("Invite 99999 was not found.");
    expect((await a.req("PATCH", "/api/v1/admin/invites/9999999999", a.admin, { revoke: true })).status).toBe(404);
  });

  it("extending an expired invite while another is open for the address is a conflict", async () => {
    const old = await invite("ivy@example.com");
    await a.t.sql`update invites set expires_at = now() - interval '1 hour' where id = ${old.id}`;
    await invite("ivy@example.com");
    expect((await a.req("PATCH", `/api/v1/admin/invites/${old.id}`, a.admin, { expires_in_hours: 1 })).status).toBe(409);
  });
});
