// The whole sign-in against a real OpenID provider (oidc-provider, 127.0.0.91), over HTTP only:
// discovery, PKCE, client_secret_basic at its token endpoint, its signed ID token and JWKS.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RealOidc, startRealOidc } from "../../helpers/oidc-provider.ts";
import { fromSameBrowser } from "../../helpers/oauth-browser.ts";
import { createHarness, type Harness, json } from "../audit/harness.ts";

const BASE = "http://cp-real.example.test";
let h: Harness;
let op: RealOidc;
let strict: RealOidc;

beforeAll(async () => {
  h = await createHarness();
  op = await startRealOidc(`${BASE}/api/v1/auth/oauth/oidc/op/callback`);
  // With its defaults: the ID token carries no e-mail, UserInfo does (issue 36 item 4).
  strict = await startRealOidc(`${BASE}/api/v1/auth/oauth/oidc/strict/callback`, "127.0.0.91", { conformIdTokenClaims: true });
  expect((await h.call("/api/v1/settings", { method: "PUT", ...json({ public_url: BASE }) })).status).toBe(200);
  const res = await h.call("/api/v1/settings/oauth", {
    method: "PATCH",
    ...json({
      providers: {
        op: { issuer: op.issuer, client_id: op.clientId, client_secret: op.clientSecret, enabled: true, allow_registration: true },
        strict: {
          issuer: strict.issuer,
          client_id: strict.clientId,
          client_secret: strict.clientSecret,
          enabled: true,
          allow_registration: true,
        },
      },
    }),
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await strict?.close();
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
    const res = await h.call(back.pathname + back.search, fromSameBrowser(begin, { token: "" }));
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
    expect((await h.call(back.pathname + back.search, fromSameBrowser(begin, { token: "" }))).status).toBe(302);
    const replay = await h.call(back.pathname + back.search, fromSameBrowser(begin, { token: "" }));
    expect(replay.status).toBe(400);
    expect((await replay.json()).detail).toBe("Invalid OAuth state");
  });

  it("with oidc-provider's defaults the e-mail comes from UserInfo, for the ID token's subject", async () => {
    strict.account = { sub: "strict-user-1", email: "Dora@Example.com", email_verified: true, name: "Dora" };
    const begin = await h.call("/api/v1/auth/oauth/oidc/strict", { token: "" });
    expect(begin.status).toBe(302);
    const back = await strict.browse(begin.headers.get("location")!);
    const res = await h.call(back.pathname + back.search, fromSameBrowser(begin, { token: "" }));
    expect(res.status, await res.clone().text()).toBe(302);
    const code = new URL(res.headers.get("location")!).searchParams.get("cb_auth_code");
    const { token } = await (await h.call(`/api/v1/auth/exchange?code=${code}`, { token: "" })).json();
    expect(await (await h.call("/api/v1/auth/me", { token })).json()).toMatchObject({ email: "dora@example.com", display_name: "Dora" });
    const [identity] = await h.t.sql`select issuer, subject from oauth_identities where provider = 'strict'`;
    expect(identity).toEqual({ issuer: strict.issuer, subject: "strict-user-1" });
  });
});
