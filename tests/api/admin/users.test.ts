// /admin/users* and /users/{id}: happy, error and security cases against the real database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";
import type { TestApp } from "../../helpers/app.ts";

let a: Actors;
let t: TestApp;
let admin: { token: string; id: number };
let editorToken: string;
let viewer: { token: string; id: number };
const PASSWORD = "a long enough password 1";

const call = (path: string, method: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
  a.req(method, path, token, body, headers);
const signIn = (email: string, password = PASSWORD) => a.req("POST", "/api/v1/auth/login", undefined, { email, password });

async function newUser(email: string, extra: Record<string, unknown> = {}): Promise<{ id: number }> {
  const res = await call("/api/v1/admin/users", "POST", admin.token, {
    email,
    password: PASSWORD,
    role: "viewer",
    must_change_password: false,
    ...extra,
  });
  expect(res.status).toBe(201);
  return { id: (await res.json()).id };
}

async function sessionOf(email: string, password = PASSWORD): Promise<string> {
  const res = await signIn(email, password);
  expect(res.status).toBe(200);
  return (await res.json()).token;
}

const idOf = async (token: string): Promise<number> => (await (await call("/api/v1/auth/me", "GET", token)).json()).id;
const audits = (action: string, entity: number) =>
  t.sql<
    { actor_id: number | null; level: string; diff: any }[]
  >`select actor_id, level, diff from audit_log where action = ${action} and entity_id = ${String(entity)} order by id`;
const confirm = (key: string) => ({ "x-svc-confirmation": "delete-user", "idempotency-key": key });

beforeAll(async () => {
  a = await createActors();
  t = a.t;
  admin = { token: a.admin, id: await idOf(a.admin) };
  editorToken = a.editor;
  viewer = { token: a.viewer, id: await idOf(a.viewer) };
});
afterAll(async () => t.close());

describe("security: every administration route needs admin:*", () => {
  const routes: [string, string, unknown?][] = [
    ["GET", "/api/v1/admin/users"],
    ["POST", "/api/v1/admin/users", { email: "x@example.com", role: "viewer" }],
    ["POST", "/api/v1/admin/users/local", { email: "x@example.com", role: "viewer" }],
    ["PATCH", "/api/v1/admin/users/1", { role: "viewer" }],
    ["DELETE", "/api/v1/admin/users/1"],
    ["POST", "/api/v1/admin/users/1/unlock"],
    ["POST", "/api/v1/admin/users/1/reset-password", {}],
    ["DELETE", "/api/v1/admin/users/1/sessions"],
    ["POST", "/api/v1/admin/users/1/masquerade", {}],
    ["PATCH", "/api/v1/users/1", { role: "viewer" }],
    ["DELETE", "/api/v1/users/1"],
  ];

  it("editor and viewer tokens get 403 and nothing changes; no token gets 401", async () => {
    for (const [method, path, body] of routes) {
      for (const token of [editorToken, viewer.token]) {
        const res = await call(path, method, token, body);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect((await res.json()).error_code).toBe("PERMISSION_DENIED");
      }
      expect((await a.req(method, path)).status, `${method} ${path}`).toBe(401);
    }
    const [root] = await t.sql`select role, is_active from users where id = ${admin.id}`;
    expect(root).toEqual({ role: "admin", is_active: true });
  });
});

describe("GET /admin/users", () => {
  it("answers the list contract with defaults, admin fields and no secrets", async () => {
    const res = await call("/api/v1/admin/users", "GET", admin.token);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ total: 3, limit: 25, offset: 0, sort: "name", direction: "asc" });
    expect(body.items.map((u: any) => u.email)).toEqual(["admin@example.com", "editor@example.com", "viewer@example.com"]);
    expect(body.items[1]).toMatchObject({ role: "editor", failed_logins: 0, locked_until: null, is_active: true });
    expect(JSON.stringify(body)).not.toMatch(/password_hash|pbkdf2|mfa_secret/);
  });

  it("clamps limit to 100, pages stably, sorts, filters and searches with wildcards taken literally", async () => {
    expect((await (await call("/api/v1/admin/users?limit=1000", "GET", admin.token)).json()).limit).toBe(100);
    const page = async (q: string) => (await (await call(`/api/v1/admin/users?${q}`, "GET", admin.token)).json()) as any;
    const byEmailDesc = await page("sort=email&direction=desc");
    expect(byEmailDesc.items.map((u: any) => u.email)).toEqual(["viewer@example.com", "editor@example.com", "admin@example.com"]);
    // name = display name, else email: "Zed" now sorts after every address.
    await t.sql`update users set display_name = 'Zed' where email = 'admin@example.com'`;
    expect((await page("sort=name")).items.map((u: any) => u.email)).toEqual([
      "editor@example.com",
      "viewer@example.com",
      "admin@example.com",
    ]);
    const first = await page("sort=role&limit=2&offset=0");
    const second = await page("sort=role&limit=2&offset=2");
    const ids = [...first.items, ...second.items].map((u: any) => u.id);
    expect(new Set(ids).size).toBe(3);
    expect((await page("role=editor")).items.map((u: any) => u.email)).toEqual(["editor@example.com"]);
    expect((await page("q=VIEW")).items.map((u: any) => u.email)).toEqual(["viewer@example.com"]);
    expect((await page("q=%25")).total).toBe(0);
    expect((await page("q=_")).total).toBe(0);
    expect((await page("is_active=false")).total).toBe(0);
  });

  it("bad list parameters are 422 naming the parameter", async () => {
    for (const q of ["limit=0", "offset=-1", "sort=password_hash", "direction=up", "is_active=maybe"]) {
      const res = await call(`/api/v1/admin/users?${q}`, "GET", admin.token);
      expect(res.status, q).toBe(422);
      expect(Object.keys((await res.json()).fields)).toEqual([q.split("=")[0]]);
    }
  });
});

describe("POST /admin/users and /admin/users/local", () => {
  it("creates a user who must change the password the admin chose; audited", async () => {
    const res = await call("/api/v1/admin/users/local", "POST", admin.token, {
      email: "New.One@Example.com",
      password: PASSWORD,
      role: "editor",
      display_name: "New",
    });
    expect(res.status).toBe(201);
    const user = await res.json();
    expect(user).toMatchObject({ email: "new.one@example.com", role: "editor", must_change_password: true, is_active: true });
    expect((await audits("user.created", user.id))[0]).toMatchObject({
      actor_id: admin.id,
      diff: { after: { role: "editor" }, password: "set by administrator" },
    });
  });

  it("without a password the account gets a random one: nobody can sign in with a guess", async () => {
    const res = await call("/api/v1/admin/users", "POST", admin.token, { email: "nopass@example.com", role: "viewer" });
    expect(res.status).toBe(201);
    const [row] = await t.sql`select password_hash, must_change_password from users where email = 'nopass@example.com'`;
    expect(row!.password_hash).toMatch(/^pbkdf2_sha256\$/);
    expect(row!.must_change_password).toBe(true);
  });

  it("accepts a custom role; refuses an unknown one, a taken email, a weak password and unknown fields", async () => {
    await t.sql`insert into custom_roles (name, scopes) values ('auditor', '["read:*"]')`;
    const ok = await call("/api/v1/admin/users", "POST", admin.token, { email: "aud@example.com", role: "auditor" });
    expect(ok.status).toBe(201);
    expect((await ok.json()).scopes).toEqual(["read:*"]);
    const cases: [unknown, number, string?][] = [
      [{ email: "r@example.com", role: "wizard" }, 422, "role"],
      [{ email: "EDITOR@example.com", role: "viewer" }, 409],
      [{ email: "w@example.com", role: "viewer", password: "short" }, 422, "password"],
      [{ email: "w@example.com", role: "viewer", password: "w@example.com" }, 422, "password"],
      [{ email: "not-an-email", role: "viewer" }, 422, "email"],
      [{ email: "w@example.com" }, 422, "role"],
      [{ email: "w@example.com", role: "viewer", is_superuser: true }, 422, "is_superuser"],
    ];
    for (const [body, status, field] of cases) {
      const res = await call("/api/v1/admin/users", "POST", admin.token, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (field) expect((await res.json()).fields).toHaveProperty(field);
    }
    expect((await t.sql`select 1 from users where email in ('r@example.com', 'w@example.com')`).length).toBe(0);
  });
});

describe("PATCH /admin/users/{id} and the last administrator", () => {
  it("changes a role, audited with before/after; read-only fields sent back are ignored", async () => {
    const { id } = await newUser("promote@example.com");
    const current = await (await call(`/api/v1/users/${id}`, "GET", admin.token)).json();
    const res = await call(`/api/v1/admin/users/${id}`, "PATCH", admin.token, { ...current, role: "editor", display_name: "Pro" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ role: "editor", display_name: "Pro", scopes: expect.arrayContaining(["write:hardware"]) });
    const [entry] = await audits("user.role_changed", id);
    expect(entry).toMatchObject({ actor_id: admin.id, level: "warning", diff: { before: { role: "viewer" }, after: { role: "editor" } } });
    expect((await audits("user.updated", id))[0]!.diff).toEqual({ before: { display_name: null }, after: { display_name: "Pro" } });
  });

  it("refuses unknown users, unknown fields, unknown roles and a taken email", async () => {
    expect((await call("/api/v1/admin/users/99999", "PATCH", admin.token, { role: "viewer" })).status).toBe(404);
    expect((await (await call("/api/v1/admin/users/99999", "PATCH", admin.token, { role: "viewer" })).json()).detail).toBe(
      "User 99999 was not found.",
    );
    expect((await call(`/api/v1/admin/users/${viewer.id}`, "PATCH", admin.token, { password_hash: "x" })).status).toBe(422);
    expect((await call(`/api/v1/admin/users/${viewer.id}`, "PATCH", admin.token, { role: "wizard" })).status).toBe(422);
    expect((await call(`/api/v1/admin/users/${viewer.id}`, "PATCH", admin.token, { email: "Editor@example.com" })).status).toBe(409);
    expect((await call("/api/v1/admin/users/abc", "PATCH", admin.token, { role: "viewer" })).status).toBe(422);
    // Beyond what the id column can hold is just another unknown id, not a database error.
    expect((await call("/api/v1/admin/users/9999999999/unlock", "POST", admin.token)).status).toBe(404);
  });

  it("the last active administrator can be neither demoted nor deactivated nor deleted", async () => {
    for (const change of [{ role: "editor" }, { is_active: false }]) {
      const res = await call(`/api/v1/admin/users/${admin.id}`, "PATCH", admin.token, change);
      expect(res.status).toBe(409);
      expect((await res.json()).detail).toMatch(/last active administrator/);
    }
    // An actor whose custom role holds admin:* is not an administrator by role: it cannot remove the last one either.
    await t.sql`insert into custom_roles (name, scopes) values ('ops-admin', '["read:*", "admin:*"]')`;
    await newUser("ops@example.com", { role: "ops-admin" });
    const ops = await sessionOf("ops@example.com");
    expect((await call(`/api/v1/admin/users/${admin.id}`, "PATCH", ops, { role: "viewer" })).status).toBe(409);
    const del = await call(`/api/v1/admin/users/${admin.id}`, "DELETE", ops, undefined, confirm("last-admin-delete-1"));
    expect(del.status).toBe(409);
    expect((await t.sql`select role, is_active from users where id = ${admin.id}`)[0]).toEqual({ role: "admin", is_active: true });
  });

  it("with a second administrator, one can be demoted", async () => {
    const { id } = await newUser("admin2@example.com", { role: "admin" });
    expect((await call(`/api/v1/admin/users/${id}`, "PATCH", admin.token, { role: "viewer" })).status).toBe(200);
  });

  it("deactivation signs the user out at once and refuses their API tokens; reactivation lets them back", async () => {
    const { id } = await newUser("leaver@example.com");
    const session = await sessionOf("leaver@example.com");
    const issued = await call("/api/v1/auth/api-token", "POST", session, { label: "ci", scopes: ["read:*"] });
    expect(issued.status).toBe(201);
    const apiToken = (await issued.json()).token;
    const res = await call(`/api/v1/admin/users/${id}`, "PATCH", admin.token, { is_active: false });
    expect(res.status).toBe(200);
    expect((await call("/api/v1/auth/me", "GET", session)).status).toBe(401);
    expect((await call("/api/v1/auth/me", "GET", apiToken)).status).toBe(401);
    expect((await audits("user.deactivated", id))[0]!.diff).toMatchObject({ sessions_revoked: 1 });
    expect((await call(`/api/v1/admin/users/${id}`, "PATCH", admin.token, { is_active: true })).status).toBe(200);
    expect((await call("/api/v1/auth/me", "GET", apiToken)).status).toBe(200);
    // The session stays revoked: reactivation does not bring old sessions back.
    expect((await call("/api/v1/auth/me", "GET", session)).status).toBe(401);
  });
});

describe("DELETE /admin/users/{id}", () => {
  it("without the confirmation headers: 428 naming them, audited, nothing deleted", async () => {
    const { id } = await newUser("gone@example.com");
    const attempts: Record<string, string>[] = [
      {},
      { "x-svc-confirmation": "delete-users", "idempotency-key": "key-0123456789" },
      { "x-svc-confirmation": "delete-user", "idempotency-key": "short" },
    ];
    for (const headers of attempts) {
      const res = await call(`/api/v1/admin/users/${id}`, "DELETE", admin.token, undefined, headers);
      expect(res.status).toBe(428);
      const body = await res.json();
      expect(body).toMatchObject({ error_code: "CONFIRMATION_REQUIRED", required: ["x-svc-confirmation", "idempotency-key"] });
    }
    const denied = await t.sql`select actor_id from audit_log where action = 'confirmation.denied' and diff->>'action' = 'delete-user'`;
    expect(denied.length).toBe(3);
    expect((await t.sql`select 1 from users where id = ${id}`).length).toBe(1);
  });

  it("deletes with confirmation, takes the sessions along, audits, replays the key; then 404", async () => {
    const { id } = await newUser("bye@example.com");
    const session = await sessionOf("bye@example.com");
    const res = await call(`/api/v1/admin/users/${id}`, "DELETE", admin.token, undefined, confirm("delete-bye-000001"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ detail: `User ${id} was deleted.`, id });
    expect((await call("/api/v1/auth/me", "GET", session)).status).toBe(401);
    expect((await audits("user.deleted", id))[0]).toMatchObject({ actor_id: admin.id, diff: { before: { email: "bye@example.com" } } });
    // Same key: the first answer again, nothing acts twice.
    const replay = await call(`/api/v1/admin/users/${id}`, "DELETE", admin.token, undefined, confirm("delete-bye-000001"));
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await t.sql`select 1 from audit_log where action = 'user.deleted' and entity_id = ${String(id)}`).length).toBe(1);
    expect((await call(`/api/v1/admin/users/${id}`, "DELETE", admin.token, undefined, confirm("delete-bye-000002"))).status).toBe(404);
  });

  it("an administrator cannot delete their own account here", async () => {
    const res = await call(`/api/v1/admin/users/${admin.id}`, "DELETE", admin.token, undefined, confirm("delete-self-0001"));
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toMatch(/your own account/);
  });
});

describe("lockout, unlock, password reset, sessions", () => {
  it("5 failed sign-ins lock the account (423), unlock restores sign-in; audited", async () => {
    const { id } = await newUser("fumble@example.com");
    for (let i = 1; i <= 4; i++) expect((await signIn("fumble@example.com", "wrong password!!")).status).toBe(401);
    expect((await signIn("fumble@example.com", "wrong password!!")).status).toBe(423);
    expect((await signIn("fumble@example.com")).status).toBe(423);
    const listed = await (await call("/api/v1/admin/users?q=fumble", "GET", admin.token)).json();
    expect(listed.items[0]).toMatchObject({ failed_logins: 5, locked_until: expect.any(String) });
    const res = await call(`/api/v1/admin/users/${id}/unlock`, "POST", admin.token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ failed_logins: 0, locked_until: null });
    expect((await audits("user.unlocked", id))[0]!.diff).toMatchObject({ before: { failed_logins: 5 }, after: { failed_logins: 0 } });
    expect((await signIn("fumble@example.com")).status).toBe(200);
    expect((await call("/api/v1/admin/users/99999/unlock", "POST", admin.token)).status).toBe(404);
  });

  it("reset-password sets the given password, forces a change and signs the user out", async () => {
    const { id } = await newUser("forgot@example.com");
    const session = await sessionOf("forgot@example.com");
    const weak = await call(`/api/v1/admin/users/${id}/reset-password`, "POST", admin.token, { new_password: "short" });
    expect(weak.status).toBe(422);
    expect((await weak.json()).fields).toHaveProperty("new_password");
    const res = await call(`/api/v1/admin/users/${id}/reset-password`, "POST", admin.token, { new_password: "a brand new password 2" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ temporary_password: null, sessions_revoked: 1, user: { must_change_password: true } });
    expect((await call("/api/v1/auth/me", "GET", session)).status).toBe(401);
    expect(await (await signIn("forgot@example.com", "a brand new password 2")).json()).toMatchObject({ requires_change: true });
    const [entry] = await audits("user.password_reset", id);
    expect(entry).toMatchObject({ actor_id: admin.id, level: "warning" });
    expect(JSON.stringify(entry)).not.toContain("a brand new password 2");
  });

  it("reset-password without a password returns a generated one once, never stored or audited in clear", async () => {
    const { id } = await newUser("temp@example.com");
    const res = await call(`/api/v1/admin/users/${id}/reset-password`, "POST", admin.token);
    expect(res.status).toBe(200);
    const { temporary_password } = await res.json();
    expect(temporary_password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await (await signIn("temp@example.com", temporary_password)).json()).toMatchObject({ requires_change: true });
    const leaks = await t.sql`select 1 from audit_log where diff::text like ${`%${temporary_password}%`}`;
    expect(leaks.length).toBe(0);
  });

  it("DELETE /admin/users/{id}/sessions revokes every session of the user; audited", async () => {
    const session = await sessionOf("viewer@example.com", "viewer password for tests");
    const res = await call(`/api/v1/admin/users/${viewer.id}/sessions`, "DELETE", admin.token);
    expect(res.status).toBe(200);
    expect((await res.json()).revoked).toBe(2);
    for (const token of [session, viewer.token]) expect((await call("/api/v1/auth/me", "GET", token)).status).toBe(401);
    expect((await audits("user.sessions_revoked", viewer.id))[0]!.diff).toEqual({ sessions_revoked: 2 });
  });
});

describe("/users/{id}", () => {
  it("administrators read anyone; others only themselves (403 otherwise, even for unknown ids)", async () => {
    const token = editorToken;
    const [editor] = await t.sql<{ id: number }[]>`select id from users where email = 'editor@example.com'`;
    const self = await call(`/api/v1/users/${editor!.id}`, "GET", token);
    expect(self.status).toBe(200);
    expect(await self.json()).not.toHaveProperty("failed_logins");
    expect((await call(`/api/v1/users/${admin.id}`, "GET", token)).status).toBe(403);
    expect((await call("/api/v1/users/99999", "GET", token)).status).toBe(403);
    const any = await call(`/api/v1/users/${editor!.id}`, "GET", admin.token);
    expect(await any.json()).toMatchObject({ email: "editor@example.com", failed_logins: 0 });
    expect((await call("/api/v1/users/99999", "GET", admin.token)).status).toBe(404);
  });

  it("PATCH and DELETE follow the /admin/users rules", async () => {
    const { id } = await newUser("twin@example.com");
    expect((await call(`/api/v1/users/${id}`, "PATCH", admin.token, { display_name: "Twin" })).status).toBe(200);
    expect((await call(`/api/v1/users/${admin.id}`, "PATCH", admin.token, { is_active: false })).status).toBe(409);
    expect((await call(`/api/v1/users/${id}`, "DELETE", admin.token)).status).toBe(428);
    expect((await call(`/api/v1/users/${id}`, "DELETE", admin.token, undefined, confirm("delete-twin-00001"))).status).toBe(200);
  });
});
