// POST /admin/users/{id}/masquerade: time-limited, marked in the session (GET /auth/me), audited, and
// never for administrators or oneself. The clock is driven to show the session really ends.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
let adminId: number;
let viewerId: number;
let offsetMs = 0;
const MINUTE = 60_000;

const me = async (token: string) => a.req("GET", "/api/v1/auth/me", token);
const masquerade = (id: number, body?: unknown, token = a.admin) => a.req("POST", `/api/v1/admin/users/${id}/masquerade`, token, body);
const near = (iso: string, ms: number) => Math.abs(Date.parse(iso) - ms) < 5000;

beforeAll(async () => {
  a = await createActors();
  // Every clock read of the app goes through deps.clock: shifting it moves the app's "now".
  a.t.runtime.deps.clock = { now: () => new Date(Date.now() + offsetMs) };
  adminId = (await (await me(a.admin)).json()).id;
  viewerId = (await (await me(a.viewer)).json()).id;
});
afterEach(() => {
  offsetMs = 0;
});
afterAll(async () => a.t.close());

describe("masquerade", () => {
  it("answers like a sign-in, marked with the administrator, for the minutes asked; audited as a warning", async () => {
    const res = await masquerade(viewerId, { minutes: 10 });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user).toMatchObject({ id: viewerId, role: "viewer" });
    expect(body.masquerade.by).toBe(adminId);
    expect(near(body.masquerade.expires_at, Date.now() + 10 * MINUTE)).toBe(true);
    expect(body.csrf_token).toEqual(expect.any(String));
    expect(res.headers.getSetCookie().some((c) => c.startsWith("svc_session=") && c.includes("Max-Age=600"))).toBe(true);
    const [row] = await a.t.sql`select masquerade_by, expires_at from sessions where user_id = ${viewerId} and masquerade_by is not null`;
    expect(row!.masquerade_by).toBe(adminId);
    expect(near(row!.expires_at.toISOString(), Date.now() + 10 * MINUTE)).toBe(true);

    const who = await me(body.token);
    expect(who.status).toBe(200);
    expect(await who.json()).toMatchObject({ id: viewerId, role: "viewer", masquerade_by: adminId });
    // The administrator's own session is not marked.
    expect((await (await me(a.admin)).json()).masquerade_by).toBeNull();

    const [entry] = await a.t
      .sql`select actor_id, level, diff from audit_log where action = 'user.masquerade' and entity_id = ${String(viewerId)}`;
    expect(entry).toMatchObject({ actor_id: adminId, level: "warning", diff: { masquerade_by: adminId, minutes: 10 } });

    // Time-limited: a minute past the end, the session is refused.
    offsetMs = 9 * MINUTE;
    expect((await me(body.token)).status).toBe(200);
    offsetMs = 11 * MINUTE;
    expect((await me(body.token)).status).toBe(401);
  });

  it("defaults to the masquerade_minutes setting", async () => {
    const byDefault = await (await masquerade(viewerId)).json();
    expect(near(byDefault.masquerade.expires_at, Date.now() + 30 * MINUTE)).toBe(true);
    await a.t.sql`insert into app_settings (key, value) values ('masquerade_minutes', '5')`;
    const bySetting = await (await masquerade(viewerId, {})).json();
    expect(near(bySetting.masquerade.expires_at, Date.now() + 5 * MINUTE)).toBe(true);
  });

  it("what the masquerade session does is audited with the target as actor, and it gains no admin rights", async () => {
    const { token } = await (await masquerade(viewerId, { minutes: 5 })).json();
    expect((await a.req("GET", "/api/v1/admin/users", token)).status).toBe(403);
    expect((await masquerade(adminId, {}, token)).status).toBe(403);
    expect((await a.req("POST", "/api/v1/auth/logout", token)).status).toBe(200);
    const [entry] = await a.t.sql`select actor_id from audit_log where action = 'logout' order by id desc limit 1`;
    expect(entry!.actor_id).toBe(viewerId);
    expect((await me(token)).status).toBe(401);
  });

  it("refuses administrators, oneself, disabled and unknown users, and bad minutes", async () => {
    const second = await a.req("POST", "/api/v1/admin/users", a.admin, { email: "admin2@example.com", role: "admin" });
    const secondId = (await second.json()).id;
    const asAdmin = await masquerade(secondId, {});
    expect(asAdmin.status).toBe(403);
    expect((await asAdmin.json()).detail).toMatch(/administrator/);
    expect((await masquerade(adminId, {})).status).toBe(403);
    const denied = await a.t.sql`select diff->>'reason' as reason from audit_log where action = 'user.masquerade_denied' order by id`;
    expect(denied.map((r) => r.reason)).toEqual(["You cannot masquerade as an administrator.", "You cannot masquerade as yourself."]);

    const off = await a.req("POST", "/api/v1/admin/users", a.admin, { email: "off@example.com", role: "viewer" });
    const offId = (await off.json()).id;
    expect((await a.req("PATCH", `/api/v1/admin/users/${offId}`, a.admin, { is_active: false })).status).toBe(200);
    expect((await masquerade(offId, {})).status).toBe(409);
    expect((await masquerade(99999, {})).status).toBe(404);
    for (const minutes of [0, 121, 2.5, "10"]) expect((await masquerade(viewerId, { minutes })).status, String(minutes)).toBe(422);
    expect((await a.t.sql`select 1 from sessions where user_id in (${secondId}, ${offId})`).length).toBe(0);
  });

  it("editor and viewer tokens get 403", async () => {
    for (const token of [a.editor, a.viewer]) expect((await masquerade(viewerId, {}, token)).status).toBe(403);
  });

  it("signing an administrator out everywhere also ends the masquerades they opened", async () => {
    const created = await a.req("POST", "/api/v1/admin/users", a.admin, {
      email: "boss@example.com",
      role: "admin",
      password: "boss password for tests",
      must_change_password: false,
    });
    const bossId = (await created.json()).id;
    const login = await a.req("POST", "/api/v1/auth/login", undefined, { email: "boss@example.com", password: "boss password for tests" });
    const bossToken = (await login.json()).token;
    const { token } = await (await masquerade(viewerId, { minutes: 60 }, bossToken)).json();
    expect((await me(token)).status).toBe(200);
    const res = await a.req("DELETE", `/api/v1/admin/users/${bossId}/sessions`, a.admin);
    expect((await res.json()).revoked).toBe(2);
    expect((await me(token)).status).toBe(401);
    expect((await me(bossToken)).status).toBe(401);
  });
});
