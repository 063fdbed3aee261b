// The signed-in user's own account: GET/PATCH /users/me, PATCH /users/me/password and the sessions
// under /users/me/sessions.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateApiToken, hashApiToken } from "../../../shared/auth/api-token.ts";
import { hashPassword } from "../../../shared/auth/password.ts";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";

const SETUP = "setup-token-me-tests";
const admin = { email: "root@example.com", password: "a very long admin password" };
const gina = { email: "gina@example.com", password: "gina's long password" };

let t: TestApp;
let ginaId: number;

async function call(method: string, path: string, token?: string, body?: unknown): Promise<Response> {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return t.app.request(`/api/v1${path}`, { method, ...(body === undefined ? { headers: auth } : json(body, auth)) });
}

async function signIn(user: { email: string; password: string }, agent = "vitest"): Promise<string> {
  const res = await t.app.request("/api/v1/auth/login", { method: "POST", ...json(user, { "user-agent": agent }) });
  expect(res.status).toBe(200);
  return (await res.json()).token;
}

const actions = async () => (await t.sql<{ action: string }[]>`select action from audit_log order by id`).map((r) => r.action);

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: SETUP });
  await t.sql`insert into app_settings (key, value) values ('rate_limit_profile', '"relaxed"')`;
  expect((await call("POST", "/bootstrap/initialize", undefined, { ...admin, setup_token: SETUP })).status).toBe(200);
  const [row] = await t.sql`insert into users (email, password_hash, role, display_name)
    values (${gina.email}, ${await hashPassword(gina.password)}, 'editor', 'Gina') returning id`;
  ginaId = row!.id;
});
afterAll(async () => t.close());
// Every app.request() is one client to the rate limiter; each test starts with fresh counters.
beforeEach(async () => {
  await t.sql`delete from rate_limit_counters`;
});

describe("GET and PATCH /users/me", () => {
  let token: string;
  beforeAll(async () => {
    token = await signIn(gina);
  });

  it("answers the caller's own account, and 401 without a credential", async () => {
    const res = await call("GET", "/users/me", token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: ginaId, email: gina.email, role: "editor", display_name: "Gina", masquerade_by: null });
    expect((await call("GET", "/users/me")).status).toBe(401);
  });

  it("changes the display name; read-only fields of the user shape are ignored; the change is audited", async () => {
    const me = await (await call("GET", "/users/me", token)).json();
    const res = await call("PATCH", "/users/me", token, {
      ...me,
      display_name: "Gina R.",
      role: "admin",
      scopes: ["*:*"],
      is_active: false,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ display_name: "Gina R.", role: "editor", is_active: true, is_admin: false });
    const [row] = await t.sql`select diff from audit_log where action = 'user.updated' order by id desc limit 1`;
    expect(row!.diff).toEqual({ before: { display_name: "Gina" }, after: { display_name: "Gina R." } });
  });

  it("names every unknown field in a 422 and changes nothing", async () => {
    const res = await call("PATCH", "/users/me", token, { display_name: "X", nickname: "g", shoe_size: 38 });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(Object.keys(body.fields).sort()).toEqual(["nickname", "shoe_size"]);
    const [row] = await t.sql`select display_name from users where id = ${ginaId}`;
    expect(row!.display_name).toBe("Gina R.");
  });

  it("an email change needs the current password (422 without, 403 wrong, 409 taken)", async () => {
    expect((await call("PATCH", "/users/me", token, { email: "g@example.com" })).status).toBe(422);
    expect((await call("PATCH", "/users/me", token, { email: "g@example.com", current_password: "wrong wrong wrong" })).status).toBe(403);
    expect((await call("PATCH", "/users/me", token, { email: "ROOT@example.com", current_password: gina.password })).status).toBe(409);
    expect(await actions()).toContain("user.email_change_denied");
    const res = await call("PATCH", "/users/me", token, { email: "Gina.New@Example.com", current_password: gina.password });
    expect(res.status).toBe(200);
    expect((await res.json()).email).toBe("gina.new@example.com");
    await t.sql`update users set email = ${gina.email} where id = ${ginaId}`;
  });

  it("an API token may read but not change its owner's account", async () => {
    const { token: apiToken, prefix } = generateApiToken();
    await t.sql`insert into api_tokens (user_id, label, prefix, token_hash, scopes)
      values (${ginaId}, 'ci', ${prefix}, ${hashApiToken(apiToken)}, ${t.sql.json(["read:*", "write:*"])})`;
    expect((await call("GET", "/users/me", apiToken)).status).toBe(200);
    const res = await call("PATCH", "/users/me", apiToken, { display_name: "Token" });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toMatch(/session/);
    expect(
      (await call("PATCH", "/users/me/password", apiToken, { current_password: gina.password, new_password: "token set this password" }))
        .status,
    ).toBe(403);
  });
});

describe("sessions and password", () => {
  let mine: string;
  let other: string;

  beforeAll(async () => {
    mine = await signIn(gina, "laptop");
    other = await signIn(gina, "phone");
  });

  it("lists the caller's live sessions, marks the current one, and never shows a token", async () => {
    const res = await call("GET", "/users/me/sessions", mine);
    expect(res.status).toBe(200);
    const list = await res.json();
    expect(list.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(list.find((s: { current: boolean }) => s.current).user_agent).toBe("laptop");
    expect(list.map((s: { user_agent: string }) => s.user_agent)).toContain("phone");
    expect(Object.keys(list[0]).sort()).toEqual(["created_at", "current", "expires_at", "id", "ip_address", "last_seen_at", "user_agent"]);
    expect(JSON.stringify(list)).not.toContain(mine.split(".")[2]);
    // Someone else's sessions are not in the list.
    const adminList = await (await call("GET", "/users/me/sessions", await signIn(admin))).json();
    expect(adminList.every((s: { id: string }) => !list.some((m: { id: string }) => m.id === s.id))).toBe(true);
  });

  it("revokes one of the caller's sessions by id; anyone else's is 404", async () => {
    const [adminSession] = await t.sql`select s.id from sessions s join users u on u.id = s.user_id where u.email = ${admin.email} limit 1`;
    const foreign = await call("DELETE", `/users/me/sessions/${adminSession!.id}`, mine);
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).detail).toBe(`Session ${adminSession!.id} was not found.`);
    const phone = (await (await call("GET", "/users/me/sessions", mine)).json()).find(
      (s: { user_agent: string }) => s.user_agent === "phone",
    );
    expect((await call("DELETE", `/users/me/sessions/${phone.id}`, mine)).status).toBe(200);
    expect((await call("GET", "/auth/me", other)).status).toBe(401);
    expect((await call("DELETE", `/users/me/sessions/${phone.id}`, mine)).status).toBe(404);
  });

  it("DELETE /users/me/sessions signs out every other session and keeps this one", async () => {
    const extra = await signIn(gina, "tablet");
    const res = await call("DELETE", "/users/me/sessions", mine);
    expect(res.status).toBe(200);
    expect((await res.json()).revoked).toBeGreaterThanOrEqual(1);
    expect((await call("GET", "/auth/me", extra)).status).toBe(401);
    expect((await call("GET", "/auth/me", mine)).status).toBe(200);
    expect(await actions()).toContain("sessions.revoked");
  });

  it("a password change checks the current password and the policy, changing nothing when refused", async () => {
    const wrong = await call("PATCH", "/users/me/password", mine, {
      current_password: "wrong wrong wrong",
      new_password: "a fresh long password",
    });
    expect(wrong.status).toBe(403);
    const weak = await call("PATCH", "/users/me/password", mine, { current_password: gina.password, new_password: "short" });
    expect(weak.status).toBe(422);
    expect((await weak.json()).fields).toHaveProperty("new_password");
    const same = await call("PATCH", "/users/me/password", mine, { current_password: gina.password, new_password: gina.password });
    expect(same.status).toBe(422);
    expect(await actions()).toContain("password.change_denied");
    expect(await signIn(gina)).toEqual(expect.any(String));
  });

  it("a password change revokes the other sessions, keeps this one, and is audited", async () => {
    const extra = await signIn(gina, "desktop");
    const res = await call("PATCH", "/users/me/password", mine, { current_password: gina.password, new_password: "a fresh long password" });
    expect(res.status).toBe(200);
    expect((await res.json()).revoked_sessions).toBeGreaterThanOrEqual(1);
    expect((await call("GET", "/auth/me", extra)).status).toBe(401);
    expect((await call("GET", "/auth/me", mine)).status).toBe(200);
    expect(await signIn({ email: gina.email, password: "a fresh long password" })).toEqual(expect.any(String));
    expect(await actions()).toContain("password.changed");
  });

  it("self-service writes with a session cookie need the CSRF header", async () => {
    const res = await t.app.request("/api/v1/users/me/sessions", { method: "DELETE", headers: { cookie: `svc_session=${mine}` } });
    expect(res.status).toBe(403);
    expect((await call("GET", "/auth/me", mine)).status).toBe(200);
  });
});
