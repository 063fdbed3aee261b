// The console's language on the user (docs/adr/0479-console-i18n.md): PATCH /users/me `locale` takes
// en/de/fr/es or null (follow the browser); GET /users/me and /auth/me answer it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, json, type TestApp } from "../../helpers/app.ts";

const SETUP = "setup-token-locale-tests";
const admin = { email: "root@example.com", password: "a very long admin password" };

let t: TestApp;
let token: string;

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  const auth = { authorization: `Bearer ${token}` };
  return t.app.request(`/api/v1${path}`, { method, ...(body === undefined ? { headers: auth } : json(body, auth)) });
}
const stored = async () => (await t.sql<{ locale: string | null }[]>`select locale from users where email = ${admin.email}`)[0]!.locale;

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: SETUP });
  await t.sql`insert into app_settings (key, value) values ('rate_limit_profile', '"relaxed"')`;
  expect((await t.app.request("/api/v1/bootstrap/initialize", { method: "POST", ...json({ ...admin, setup_token: SETUP }) })).status).toBe(
    200,
  );
  const res = await t.app.request("/api/v1/auth/login", { method: "POST", ...json(admin) });
  token = (await res.json()).token;
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.sql`delete from rate_limit_counters`;
});

describe("the user's console language", () => {
  it("is null until chosen, on both /users/me and /auth/me", async () => {
    expect((await (await call("GET", "/users/me")).json()).locale).toBeNull();
    expect((await (await call("GET", "/auth/me")).json()).locale).toBeNull();
  });

  it("PATCH stores one of en/de/fr/es, answers it and is audited", async () => {
    const res = await call("PATCH", "/users/me", { locale: "de" });
    expect(res.status).toBe(200);
    expect((await res.json()).locale).toBe("de");
    expect(await stored()).toBe("de");
    expect((await (await call("GET", "/auth/me")).json()).locale).toBe("de");
    const [entry] = await t.sql<{ diff: unknown }[]>`select diff from audit_log where action = 'user.updated' order by id desc limit 1`;
    expect(entry!.diff).toEqual({ before: { locale: null }, after: { locale: "de" } });
  });

  it.each([["it"], ["DE"], ["en-US"], [""], [7], [true]])("refuses %j with a 422 naming the field and changes nothing", async (locale) => {
    const res = await call("PATCH", "/users/me", { locale });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(Object.keys(body.fields)).toEqual(["locale"]);
    expect(await stored()).toBe("de");
  });

  it("null clears it (follow the browser again); leaving it out keeps it", async () => {
    expect((await call("PATCH", "/users/me", { locale: "fr" })).status).toBe(200);
    expect((await (await call("PATCH", "/users/me", { display_name: "Root" })).json()).locale).toBe("fr");
    const res = await call("PATCH", "/users/me", { locale: null });
    expect(res.status).toBe(200);
    expect((await res.json()).locale).toBeNull();
    expect(await stored()).toBeNull();
  });

  it("is the user's own: an administrator's PATCH /admin/users ignores it", async () => {
    const me = await (await call("GET", "/users/me")).json();
    const res = await call("PATCH", `/admin/users/${me.id}`, { locale: "es" });
    expect(res.status).toBe(200);
    expect((await res.json()).locale).toBeNull();
    expect(await stored()).toBeNull();
  });
});
