// Custom roles: GET/POST /settings/roles, PUT/DELETE /settings/roles/{role_id}, and that a user with a
// custom role gets exactly its scopes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "../../../shared/auth/password.ts";
import { changeCredentials, createTestApp, json, type TestApp } from "../../helpers/app.ts";

const SETUP = "setup-token-for-role-tests";
const admin = { email: "root@example.com", password: "a very long admin password" };
const member = { email: "auditor@example.com", password: "another long password here" };

let t: TestApp;
let adminJwt: string;
let viewerToken: string;
let editorToken: string;
let memberJwt: string;
let peer = 0;

async function call(method: string, path: string, token?: string, body?: unknown): Promise<Response> {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return t.app.request(`/api/v1${path}`, { method, ...(body === undefined ? { headers: auth } : json(body, auth)) });
}

async function created(res: Response) {
  expect(res.status).toBe(201);
  return res.json();
}

async function roleCount(): Promise<number> {
  return (await t.sql<{ n: number }[]>`select count(*)::int as n from custom_roles`)[0]!.n;
}

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: SETUP }, { peerAddress: () => `203.0.113.${peer}` });
  await t.sql`insert into app_settings (key, value) values ('rate_limit_profile', '"relaxed"')`;
  const init = await t.app.request("/api/v1/bootstrap/initialize", { method: "POST", ...json({ ...admin, setup_token: SETUP }) });
  adminJwt = (await init.json()).token;
  viewerToken = (await created(await call("POST", "/auth/service-account", adminJwt, { name: "viewer", role: "viewer" }))).token.token;
  editorToken = (await created(await call("POST", "/auth/service-account", adminJwt, { name: "editor", role: "editor" }))).token.token;
  // A password user whose role is set below to a custom one (the role need not exist yet: unknown -> no scopes).
  await t.sql`insert into users (email, password_hash, role) values (${member.email}, ${await hashPassword(member.password)}, 'auditor')`;
  const login = await t.app.request("/api/v1/auth/jwt/login", { method: "POST", ...json(member) });
  memberJwt = (await login.json()).access_token;
});
afterAll(async () => t.close());
beforeEach(() => {
  peer++;
});

describe("GET /settings/roles", () => {
  it("lists the built-in roles read-only, with their scopes", async () => {
    const res = await call("GET", "/settings/roles", viewerToken);
    expect(res.status).toBe(200);
    const roles = await res.json();
    expect(roles.slice(0, 4).map((r: { name: string }) => r.name)).toEqual(["viewer", "demo", "editor", "admin"]);
    expect(roles.find((r: { name: string }) => r.name === "admin")).toMatchObject({
      id: null,
      built_in: true,
      scopes: ["read:*", "write:*", "delete:*", "admin:*"],
    });
    expect((await call("GET", "/settings/roles")).status).toBe(401);
  });
});

describe("POST /settings/roles", () => {
  it("creates a custom role; a user with it gets exactly its scopes", async () => {
    // Before the role exists the user has no scopes at all.
    expect((await (await call("GET", "/auth/me", memberJwt)).json()).scopes).toEqual([]);
    const role = await created(
      await call("POST", "/settings/roles", adminJwt, {
        name: "auditor",
        description: "Reads and documents",
        scopes: ["read:*", "write:docs"],
      }),
    );
    expect(role).toMatchObject({ name: "auditor", description: "Reads and documents", scopes: ["read:*", "write:docs"], built_in: false });
    expect(typeof role.id).toBe("number");
    expect((await (await call("GET", "/auth/me", memberJwt)).json()).scopes).toEqual(["read:*", "write:docs"]);
    // Its scopes bound what the user can grant.
    expect((await call("POST", "/auth/api-token", memberJwt, { label: "docs", scopes: ["write:docs"] })).status).toBe(201);
    const wider = await call("POST", "/auth/api-token", memberJwt, { label: "hw", scopes: ["write:hardware"] });
    expect(wider.status).toBe(403);
    expect((await wider.json()).detail).toContain("write:hardware");
    const listed = await (await call("GET", "/settings/roles", viewerToken)).json();
    expect(listed.find((r: { name: string }) => r.name === "auditor")).toMatchObject({ id: role.id, built_in: false });
    const scopes = await (await call("GET", "/auth/scopes", viewerToken)).json();
    expect(scopes.roles.map((r: { name: string }) => r.name)).toContain("auditor");
    const [entry] = await t.sql<
      { diff: unknown }[]
    >`select diff from audit_log where action = 'role.created' and entity_id = ${String(role.id)}`;
    expect(entry!.diff).toMatchObject({ after: { name: "auditor", scopes: ["read:*", "write:docs"] } });
  });

  it("bad names and scopes are 422 naming the field; a taken name is 409; nothing is created", async () => {
    const before = await roleCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "admin", scopes: ["read:*"] }, "name"],
      [{ name: "Bad Name", scopes: ["read:*"] }, "name"],
      [{ name: "ok-name", scopes: ["frobnicate"] }, "scopes.0"],
      [{ name: "ok-name", scopes: ["read:*", "write:Hardware"] }, "scopes.1"],
      [{ name: "ok-name", scopes: [] }, "scopes"],
      [{ name: "ok-name" }, "scopes"],
    ];
    for (const [body, field] of cases) {
      const res = await call("POST", "/settings/roles", adminJwt, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).fields, JSON.stringify(body)).toHaveProperty([field]);
    }
    const taken = await call("POST", "/settings/roles", adminJwt, { name: "auditor", scopes: ["read:*"] });
    expect(taken.status).toBe(409);
    expect((await taken.json()).error_code).toBe("CONFLICT");
    expect(await roleCount()).toBe(before);
  });

  it("is admin-only, and an admin's narrower token cannot create a role wider than itself", async () => {
    const body = { name: "sneaky", scopes: ["read:*"] };
    expect((await call("POST", "/settings/roles", viewerToken, body)).status).toBe(403);
    expect((await call("POST", "/settings/roles", editorToken, body)).status).toBe(403);
    expect((await call("POST", "/settings/roles", undefined, body)).status).toBe(401);
    const adminOnly = await created(await call("POST", "/auth/api-token", adminJwt, { label: "admin only", scopes: ["admin:*"] }));
    const res = await call("POST", "/settings/roles", adminOnly.token, { name: "sneaky", scopes: ["write:*"] });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toContain("write:*");
    expect((await t.sql`select 1 from custom_roles where name = 'sneaky'`).length).toBe(0);
  });
});

describe("PUT /settings/roles/{role_id}", () => {
  it("changes the scopes, effective on the user's next request, with a before/after audit entry", async () => {
    const role = await created(await call("POST", "/settings/roles", adminJwt, { name: "ops", scopes: ["read:*"] }));
    await changeCredentials(t, () => t.sql`update users set role = 'ops' where email = ${member.email}`);
    expect((await (await call("GET", "/auth/me", memberJwt)).json()).scopes).toEqual(["read:*"]);
    const res = await call("PUT", `/settings/roles/${role.id}`, adminJwt, { scopes: ["read:*", "write:hardware"] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: role.id, name: "ops", scopes: ["read:*", "write:hardware"] });
    expect((await (await call("GET", "/auth/me", memberJwt)).json()).scopes).toEqual(["read:*", "write:hardware"]);
    const [entry] = await t.sql<
      { diff: unknown }[]
    >`select diff from audit_log where action = 'role.updated' and entity_id = ${String(role.id)}`;
    expect(entry!.diff).toMatchObject({ before: { scopes: ["read:*"] }, after: { scopes: ["read:*", "write:hardware"] } });
  });

  it("a rename carries the role's users along", async () => {
    const [ops] = await t.sql<{ id: number }[]>`select id from custom_roles where name = 'ops'`;
    const res = await call("PUT", `/settings/roles/${ops!.id}`, adminJwt, { name: "operations", description: "Runs things" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "operations", description: "Runs things", scopes: ["read:*", "write:hardware"] });
    expect((await t.sql`select 1 from users where role = 'operations'`).length).toBe(1);
    expect((await (await call("GET", "/auth/me", memberJwt)).json()).scopes).toEqual(["read:*", "write:hardware"]);
  });

  it("refuses built-in names (422), taken names (409), empty bodies (422), unknown ids (404) and non-admins (403)", async () => {
    const [ops] = await t.sql<{ id: number }[]>`select id from custom_roles where name = 'operations'`;
    const path = `/settings/roles/${ops!.id}`;
    expect((await call("PUT", path, adminJwt, { name: "editor" })).status).toBe(422);
    expect((await call("PUT", path, adminJwt, { name: "auditor" })).status).toBe(409);
    expect((await call("PUT", path, adminJwt, {})).status).toBe(422);
    expect((await call("PUT", path, adminJwt, { scopes: ["nope"] })).status).toBe(422);
    const missing = await call("PUT", "/settings/roles/999999", adminJwt, { description: "x" });
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toBe("Role 999999 was not found.");
    expect((await call("PUT", path, viewerToken, { description: "x" })).status).toBe(403);
    expect((await call("PUT", path, editorToken, { description: "x" })).status).toBe(403);
    const [after] = await t.sql`select name, scopes from custom_roles where id = ${ops!.id}`;
    expect(after).toEqual({ name: "operations", scopes: ["read:*", "write:hardware"] });
  });
});

describe("DELETE /settings/roles/{role_id}", () => {
  it("is 409 naming the users that still have the role, then deletes once nobody has it", async () => {
    const [ops] = await t.sql<{ id: number }[]>`select id from custom_roles where name = 'operations'`;
    const busy = await call("DELETE", `/settings/roles/${ops!.id}`, adminJwt);
    expect(busy.status).toBe(409);
    const body = await busy.json();
    expect(body.detail).toContain(member.email);
    expect(body.users).toEqual([{ id: expect.any(Number), email: member.email }]);
    expect((await call("DELETE", `/settings/roles/${ops!.id}`, viewerToken)).status).toBe(403);
    await changeCredentials(t, () => t.sql`update users set role = 'viewer' where email = ${member.email}`);
    const res = await call("DELETE", `/settings/roles/${ops!.id}`, adminJwt);
    expect(res.status).toBe(200);
    expect((await t.sql`select 1 from custom_roles where id = ${ops!.id}`).length).toBe(0);
    expect((await t.sql`select 1 from audit_log where action = 'role.deleted' and entity_id = ${String(ops!.id)}`).length).toBe(1);
    expect((await call("DELETE", `/settings/roles/${ops!.id}`, adminJwt)).status).toBe(404);
    expect((await call("DELETE", "/settings/roles/x1", adminJwt)).status).toBe(422);
  });
});
