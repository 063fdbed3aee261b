// The whole sign-in against a real OpenID provider (oidc-provider, 127.0.0.91), over HTTP only:
// discovery, PKCE, client_secret_basic at its token endpoint, its signed ID token and JWKS.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RealOidc, startRealOidc } from "../../helpers/oidc-provider.ts";
import { createHarness, type Harness, json } from "../audit/harness.ts";

const BASE = "http://cp-real.example.test";
let h: Harness;
let op: RealOidc;

beforeAll(async () => {
  h = await createHarness();
  op = await startRealOidc(`${BASE}/api/v1/auth/oauth/oidc/op/callback`);
  expect((await h.call("/api/v1/settings", { method: "PUT", ...json({ public_url: BASE }) })).status).toBe(200);
  const res = await h.call("/api/v1/settings/oauth", {
    method: "PATCH",
    ...json({ providers: { op: { issuer: op.issuer, client_id: op.clientId, client_secret: op.clientSecret, enabled: true, allow_registration: true } } }),
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await op?.close();
  await h?.t.close();
});

describe("against oidc-provider", () => {
  it("signs a new user in and the one-time code becomes a session token", async () => {
    const begin = await h.call("/api/v1/auth/oauth/oidc/op", { token: "" });
    expect(begin.status).toBe(302);
    const back = await op.browse(begin.headers.get("location")!);
    expect(back.origin).toBe(BASE);
    expect(back.searchParams.get("error")).toBeNull();
    const res = await h.call(back.pathname + back.search, { token: "" });
    expect(res.status, await res.clone().text()).toBe(302);
    const code = new URL(res.headers.get("location")!).searchParams.get("cb_auth_code");
    const ex = await h.call(`/api/v1/auth/exchange?code=${code}`, { token: "" });
    expect(ex.status).toBe(200);
    const me = await (await h.call("/api/v1/auth/me", { token: (await ex.json()).token })).json();
    expect(me).toMatchObject({ email: "carol@example.com", role: "viewer" });
    const [identity] = await h.t.sql`select issuer, subject from oauth_identities`;
    expect(identity).toEqual({ issuer: op.issuer, subject: "real-user-1" });
  });

  it("replaying the callback (same state) is refused", async () => {
    const begin = await h.call("/api/v1/auth/oauth/oidc/op", { token: "" });
    const back = await op.browse(begin.headers.get("location")!);
    expect((await h.call(back.pathname + back.search, { token: "" })).status).toBe(302);
    const replay = await h.call(back.pathname + back.search, { token: "" });
    expect(replay.status).toBe(400);
    expect((await replay.json()).detail).toBe("Invalid OAuth state");
  });
});
