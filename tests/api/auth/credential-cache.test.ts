// The per-process credential cache against the real database: a resolved credential is reused, a
// change made through this process applies to the very next request, a change made anywhere else
// (another instance, an operator's SQL) applies as soon as the database's NOTIFY arrives, and with its
// listener down the process looks every credential up again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeCredentials, createTestApp, json, type TestApp } from "../../helpers/app.ts";

const SETUP = "setup-token-for-cache-tests";
const admin = { email: "root@example.com", password: "a very long admin password" };

let t: TestApp;
let adminJwt: string;
let peer = 0;

async function call(method: string, path: string, token: string): Promise<Response> {
  return t.app.request(`/api/v1${path}`, { method, headers: { authorization: `Bearer ${token}` } });
}

async function mint(label: string): Promise<{ id: number; token: string }> {
  const res = await t.app.request("/api/v1/auth/api-token", {
    method: "POST",
    ...json({ label, scopes: ["read:*"] }, { authorization: `Bearer ${adminJwt}` }),
  });
  expect(res.status).toBe(201);
  return res.json();
}

const cache = () => t.runtime.deps.credentialCache!;

beforeAll(async () => {
  t = await createTestApp({ SVC_SETUP_TOKEN: SETUP }, { peerAddress: () => `198.51.100.${++peer % 250}` });
  await t.sql`insert into app_settings (key, value) values ('rate_limit_profile', '"relaxed"')`;
  const res = await t.app.request("/api/v1/bootstrap/initialize", { method: "POST", ...json({ ...admin, setup_token: SETUP }) });
  adminJwt = (await res.json()).token;
  // The LISTEN connects in the background when the runtime opens.
  for (let i = 0; i < 300 && !cache().live; i++) await new Promise((r) => setTimeout(r, 10));
  expect(cache().live).toBe(true);
});
afterAll(async () => t.close());

describe("credential cache", () => {
  it("reuses a resolution: with the announcing trigger off, a revocation in SQL goes unseen until a flush", async () => {
    const token = await mint("cached");
    expect((await call("GET", "/auth/me", token.token)).status).toBe(200);
    await t.sql`alter table api_tokens disable trigger api_tokens_credentials_changed`;
    try {
      await t.sql`update api_tokens set revoked_at = now() where id = ${token.id}`;
      // Served from memory: the database was not asked again.
      expect((await call("GET", "/auth/me", token.token)).status).toBe(200);
    } finally {
      await t.sql`alter table api_tokens enable trigger api_tokens_credentials_changed`;
    }
    cache().flush();
    const res = await call("GET", "/auth/me", token.token);
    expect(res.status).toBe(401);
    expect((await res.json()).detail).toContain("revoked");
  });

  it("a revocation through this process applies to the very next request", async () => {
    const token = await mint("revoked-here");
    expect((await call("GET", "/auth/me", token.token)).status).toBe(200);
    expect((await call("DELETE", `/auth/api-tokens/${token.id}`, adminJwt)).status).toBe(200);
    expect((await call("GET", "/auth/me", token.token)).status).toBe(401);
  });

  it("sign-out ends a cached session at once", async () => {
    const login = await t.app.request("/api/v1/auth/jwt/login", { method: "POST", ...json(admin) });
    const jwt = (await login.json()).access_token as string;
    expect((await call("GET", "/auth/me", jwt)).status).toBe(200);
    expect((await call("POST", "/auth/jwt/logout", jwt)).status).toBeLessThan(300);
    expect((await call("GET", "/auth/me", jwt)).status).toBe(401);
  });

  it("a change made elsewhere applies once the database announces it", async () => {
    const token = await mint("revoked-elsewhere");
    expect((await call("GET", "/auth/me", token.token)).status).toBe(200);
    await changeCredentials(t, () => t.sql`update api_tokens set revoked_at = now() where id = ${token.id}`);
    expect((await call("GET", "/auth/me", token.token)).status).toBe(401);
  });

  it("a role changed in SQL narrows the user's next request once announced", async () => {
    const login = await t.app.request("/api/v1/auth/jwt/login", { method: "POST", ...json(admin) });
    const jwt = (await login.json()).access_token as string;
    expect((await (await call("GET", "/auth/me", jwt)).json()).role).toBe("admin");
    await changeCredentials(t, () => t.sql`insert into custom_roles (name, scopes) values ('watcher', '["read:*"]')`);
    await changeCredentials(t, () => t.sql`update users set role = 'watcher' where email = ${admin.email}`);
    expect((await (await call("GET", "/auth/me", jwt)).json()).scopes).toEqual(["read:*"]);
    await changeCredentials(t, () => t.sql`update users set role = 'admin' where email = ${admin.email}`);
    expect((await (await call("GET", "/auth/me", jwt)).json()).role).toBe("admin");
  });

  it("remembers nothing while its listener is down", async () => {
    const token = await mint("unlistened");
    cache().setLive(false);
    try {
      expect((await call("GET", "/auth/me", token.token)).status).toBe(200);
      expect(cache().size).toBe(0);
      await t.sql`alter table api_tokens disable trigger api_tokens_credentials_changed`;
      await t.sql`update api_tokens set revoked_at = now() where id = ${token.id}`;
      await t.sql`alter table api_tokens enable trigger api_tokens_credentials_changed`;
      expect((await call("GET", "/auth/me", token.token)).status).toBe(401);
    } finally {
      cache().setLive(true);
    }
  });
});

describe("CREDENTIAL_CACHE_S=0", () => {
  it("turns the cache off", async () => {
    const off = await createTestApp({ CREDENTIAL_CACHE_S: "0" });
    try {
      expect(off.runtime.deps.credentialCache).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});
