// Self-service sign-in and account routes: forced password change, registration, the demo user,
// deleting one's own account, and avatars (upload by multipart field `file`, served from /user-icons).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashPassword } from "../../../shared/auth/password.ts";
import { importFileAvatars } from "../../../sidecar/startup/import-file-avatars.ts";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";
import { csrfHeaders, sessionCookies } from "../../helpers/session-cookies.ts";

const SETUP = "setup-token-self-service-tests";
const admin = { email: "root@example.com", password: "a very long admin password" };

let t: TestApp;
let dataDir: string;
let adminToken: string;

async function call(method: string, path: string, token?: string, body?: unknown): Promise<Response> {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return t.app.request(`/api/v1${path}`, { method, ...(body === undefined ? { headers: auth } : json(body, auth)) });
}

async function addUser(
  email: string,
  password: string | null,
  extra: { role?: string; must_change_password?: boolean } = {},
): Promise<number> {
  const hash = password ? await hashPassword(password) : null;
  const [row] = await t.sql`insert into users (email, password_hash, role, must_change_password)
    values (${email}, ${hash}, ${extra.role ?? "viewer"}, ${extra.must_change_password ?? false}) returning id`;
  return row!.id;
}

async function signIn(email: string, password: string): Promise<string> {
  const res = await call("POST", "/auth/login", undefined, { email, password });
  expect(res.status).toBe(200);
  return (await res.json()).token;
}

async function setting(key: string, value: unknown): Promise<void> {
  await t.sql`insert into app_settings (key, value) values (${key}, ${t.sql.json(value as never)})
    on conflict (key) do update set value = excluded.value`;
}

const actions = async () => (await t.sql<{ action: string }[]>`select action from audit_log order by id`).map((r) => r.action);

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "svc-self-service-"));
  t = await createTestApp({ SVC_SETUP_TOKEN: SETUP, DATA_DIR: dataDir });
  await setting("rate_limit_profile", "relaxed");
  const res = await call("POST", "/bootstrap/initialize", undefined, { ...admin, setup_token: SETUP });
  adminToken = (await res.json()).token;
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});
// Every app.request() is one client to the rate limiter; each test starts with fresh counters.
beforeEach(async () => {
  await t.sql`delete from rate_limit_counters`;
});

describe("POST /auth/force-change-password", () => {
  const bob = { email: "bob@example.com", password: "bob's first password" };
  let bobId: number;
  let changeToken: string;

  beforeAll(async () => {
    bobId = await addUser(bob.email, bob.password, { must_change_password: true });
    await t.sql`insert into sessions (id, user_id, expires_at) values ('bob-old-session', ${bobId}, now() + interval '1 day')`;
  });

  it("login answers a change token instead of a session", async () => {
    const res = await call("POST", "/auth/login", undefined, bob);
    const body = await res.json();
    expect(body).toEqual({ requires_change: true, change_token: expect.any(String) });
    changeToken = body.change_token;
  });

  it("refuses a weak or unchanged new password with 422 on new_password, changing nothing", async () => {
    const weak = await call("POST", "/auth/force-change-password", undefined, { change_token: changeToken, new_password: "short" });
    expect(weak.status).toBe(422);
    expect((await weak.json()).fields).toHaveProperty("new_password");
    const same = await call("POST", "/auth/force-change-password", undefined, { change_token: changeToken, new_password: bob.password });
    expect(same.status).toBe(422);
    const [row] = await t.sql`select must_change_password from users where id = ${bobId}`;
    expect(row!.must_change_password).toBe(true);
  });

  it("refuses a token of another audience or a garbled one with 401", async () => {
    for (const change_token of [adminToken, "not-a-token"]) {
      const res = await call("POST", "/auth/force-change-password", undefined, { change_token, new_password: "a brand new password" });
      expect(res.status).toBe(401);
    }
    expect(await actions()).toContain("password.change_failed");
  });

  it("sets the password, revokes other sessions and signs in (CSRF-exempt even with a session cookie)", async () => {
    const res = await t.app.request("/api/v1/auth/force-change-password", {
      method: "POST",
      ...json({ change_token: changeToken, new_password: "a brand new password" }, { cookie: `svc_session=${adminToken}` }),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user).toMatchObject({ email: bob.email, must_change_password: false });
    expect((await call("GET", "/auth/me", body.token)).status).toBe(200);
    // The new cookie session takes writes with its csrf_token (bound to that session).
    const session = sessionCookies(res);
    expect(body.csrf_token).toBe(session.csrf);
    const write = await t.app.request("/api/v1/users/me", { method: "PATCH", ...json({ display_name: "Bob" }, csrfHeaders(session)) });
    expect(write.status).toBe(200);
    const [old] = await t.sql`select revoked_at from sessions where id = 'bob-old-session'`;
    expect(old!.revoked_at).not.toBeNull();
    expect(await signIn(bob.email, "a brand new password")).toEqual(expect.any(String));
    expect(await actions()).toContain("password.changed");
  });

  it("the change token works once", async () => {
    const again = await call("POST", "/auth/force-change-password", undefined, {
      change_token: changeToken,
      new_password: "yet another new password",
    });
    expect(again.status).toBe(401);
  });
});

describe("POST /auth/register", () => {
  const carol = { email: "carol@example.com", password: "carol's long password", display_name: "Carol" };

  it("is 403 while registration is disabled (the default)", async () => {
    const res = await call("POST", "/auth/register", undefined, carol);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error_code: "PERMISSION_DENIED", detail: "Registration is disabled" });
    const [row] = await t.sql`select count(*)::int as n from users where email = ${carol.email}`;
    expect(row!.n).toBe(0);
  });

  it("creates the account with the default role and answers like a login", async () => {
    await setting("allow_registration", true);
    await setting("registration_default_role", "editor");
    const res = await call("POST", "/auth/register", undefined, carol);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user).toMatchObject({ email: carol.email, display_name: "Carol", role: "editor", is_admin: false });
    expect((await call("GET", "/auth/me", body.token)).status).toBe(200);
    expect(await actions()).toContain("user.registered");
  });

  it("never gives an administrative role, whatever the setting says", async () => {
    await setting("registration_default_role", "admin");
    const res = await call("POST", "/auth/register", undefined, { email: "dave@example.com", password: "dave's long password" });
    expect((await res.json()).user.role).toBe("viewer");
  });

  it("refuses a taken address (any case) with 409 and a weak password with 422", async () => {
    expect((await call("POST", "/auth/register", undefined, { ...carol, email: "CAROL@example.com" })).status).toBe(409);
    const weak = await call("POST", "/auth/register", undefined, { email: "erin@example.com", password: "short" });
    expect(weak.status).toBe(422);
    expect((await weak.json()).fields).toHaveProperty("password");
  });
});

describe("POST /auth/demo", () => {
  it("is 403 while the demo is disabled", async () => {
    expect((await call("POST", "/auth/demo")).status).toBe(403);
  });

  it("signs in as one read-only demo user without a password, created on first use", async () => {
    await setting("demo_enabled", true);
    const first = await (await call("POST", "/auth/demo")).json();
    const second = await (await call("POST", "/auth/demo")).json();
    expect(first.user).toMatchObject({ role: "demo", scopes: ["read:*"] });
    expect(second.user.id).toBe(first.user.id);
    const [row] = await t.sql`select password_hash from users where id = ${first.user.id}`;
    expect(row!.password_hash).toBeNull();
    // Read-only: it cannot change its own account either.
    const patch = await call("PATCH", "/users/me", first.token, { display_name: "Mine now" });
    expect(patch.status).toBe(403);
    expect((await call("POST", "/auth/mfa/setup", first.token)).status).toBe(403);
  });
});

describe("DELETE /auth/me", () => {
  it("refuses a wrong password (403, audited) and the last active administrator (409)", async () => {
    const wrong = await call("DELETE", "/auth/me", adminToken, { password: "not the password at all" });
    expect(wrong.status).toBe(403);
    expect(await actions()).toContain("user.delete_denied");
    const last = await call("DELETE", "/auth/me", adminToken, { password: admin.password });
    expect(last.status).toBe(409);
    expect((await last.json()).error_code).toBe("CONFLICT");
    const [row] = await t.sql`select count(*)::int as n from users where email = ${admin.email}`;
    expect(row!.n).toBe(1);
  });

  it("deletes the caller's account and every session with it; an admin may leave when another remains", async () => {
    await addUser("frank@example.com", "frank's long password");
    const token = await signIn("frank@example.com", "frank's long password");
    const res = await call("DELETE", "/auth/me", token, { password: "frank's long password" });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("svc_session=;"))).toBe(true);
    expect((await call("GET", "/auth/me", token)).status).toBe(401);
    const [row] = await t.sql`select count(*)::int as n from users where email = 'frank@example.com'`;
    expect(row!.n).toBe(0);
    expect(await actions()).toContain("user.deleted");

    await addUser("root2@example.com", "second admin password", { role: "admin" });
    const second = await signIn("root2@example.com", "second admin password");
    expect((await call("DELETE", "/auth/me", second, { password: "second admin password" })).status).toBe(200);
  });
});

describe("avatars", () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
  const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0]);
  const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

  async function upload(bytes: Uint8Array, field = "file", type = "image/png"): Promise<Response> {
    const form = new FormData();
    form.append(field, new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), "avatar");
    return t.app.request("/api/v1/auth/me/avatar", { method: "PUT", body: form, headers: { authorization: `Bearer ${adminToken}` } });
  }

  it("stores a PNG, points avatar_url at it and serves it with its type, nosniff and caching", async () => {
    const res = await upload(PNG);
    expect(res.status).toBe(200);
    const url: string = (await res.json()).avatar_url;
    expect(url).toMatch(/^\/user-icons\/\d+-[0-9a-f]{32}\.png$/);
    const served = await t.app.request(url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toContain("max-age");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    const avatars = async () =>
      (await t.sql<{ name: string }[]>`select name from uploads where kind = 'avatar' order by id`).map((r) => r.name);
    expect(await avatars()).toEqual([url.split("/").pop()]);

    const replaced = await upload(JPEG, "file", "image/png");
    const next: string = (await replaced.json()).avatar_url;
    expect(next).toMatch(/\.jpg$/);
    expect((await t.app.request(next)).headers.get("content-type")).toBe("image/jpeg");
    expect((await t.app.request(url)).status).toBe(404);
    // The previous image went in the same transaction that replaced it.
    expect(await avatars()).toEqual([next.split("/").pop()]);
    expect(await actions()).toContain("user.avatar_changed");
  });

  it("judges the type by content: SVG or text named image/png is 422; over 512 KiB is 413", async () => {
    const svg = await upload(SVG, "file", "image/png");
    expect(svg.status).toBe(422);
    expect((await svg.json()).fields).toHaveProperty("file");
    expect((await upload(new TextEncoder().encode("hello"))).status).toBe(422);
    const big = new Uint8Array(512 * 1024 + 1);
    big.set(PNG);
    const tooBig = await upload(big);
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).error_code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("needs multipart with a field named file", async () => {
    expect((await upload(PNG, "image")).status).toBe(422);
    const raw = await t.app.request("/api/v1/auth/me/avatar", {
      method: "PUT",
      body: PNG,
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "image/png" },
    });
    expect(raw.status).toBe(422);
    expect((await t.app.request("/api/v1/auth/me/avatar", { method: "PUT", body: new FormData() })).status).toBe(401);
  });

  it("serves only names it gave out", async () => {
    for (const path of [
      "/user-icons/..%2F..%2Fetc%2Fpasswd",
      "/user-icons/evil.svg",
      "/user-icons/1-00000000000000000000000000000000.png",
    ]) {
      const res = await t.app.request(path);
      expect(res.status).toBe(404);
      expect((await res.json()).error_code).toBe("RESOURCE_NOT_FOUND");
    }
  });

  it("an account that is deleted takes its avatar with it", async () => {
    await addUser("gail@example.com", "gail's long password");
    const token = await signIn("gail@example.com", "gail's long password");
    const form = new FormData();
    form.append("file", new Blob([PNG as Uint8Array<ArrayBuffer>], { type: "image/png" }), "avatar");
    const res = await t.app.request("/api/v1/auth/me/avatar", { method: "PUT", body: form, headers: { authorization: `Bearer ${token}` } });
    const url: string = (await res.json()).avatar_url;
    expect((await t.app.request(url)).status).toBe(200);
    expect((await call("DELETE", "/auth/me", token, { password: "gail's long password" })).status).toBe(200);
    expect((await t.app.request(url)).status).toBe(404);
    expect((await t.sql`select 1 from uploads where kind = 'avatar' and name = ${url.split("/").pop()!}`).length).toBe(0);
  });

  it("imports an avatar file left by release 0.1.0 (DATA_DIR/user-icons) on start, once", async () => {
    const [me] = await t.sql<{ id: number }[]>`select id from users where email = ${admin.email}`;
    const name = `${me!.id}-${"ab".repeat(16)}.png`;
    await mkdir(join(dataDir, "user-icons"), { recursive: true });
    await writeFile(join(dataDir, "user-icons", name), PNG);
    await t.sql`update users set avatar_path = ${name} where id = ${me!.id}`;
    expect(await importFileAvatars(t.runtime)).toBe(1);
    const served = await t.app.request(`/user-icons/${name}`);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    expect(await importFileAvatars(t.runtime)).toBe(0);
  });
});
