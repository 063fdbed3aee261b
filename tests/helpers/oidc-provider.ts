// A real, certified OpenID provider (the `oidc-provider` package) on loopback for the OAuth tests.
// Its interactions are answered without a page: the interaction URL finishes the login at once for
// `account` (with a grant for the requested scopes), so the whole flow stays plain HTTP. `browse`
// follows redirects with a small cookie jar, as a browser would, until it leaves the provider.
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

export interface RealOidc {
  issuer: string;
  clientId: string;
  clientSecret: string;
  account: { sub: string; email: string; email_verified: boolean; name: string };
  /** Follows the provider's redirects from `url` (cookies kept) and answers the first URL off the provider. */
  browse(url: string): Promise<URL>;
  close(): Promise<void>;
}

export interface RealOidcOptions {
  /**
   * oidc-provider's own default (true) keeps e-mail and profile out of an ID token issued with an
   * access token (OpenID Connect Core 5.4): the client must ask UserInfo. false puts them in the ID token.
   */
  conformIdTokenClaims?: boolean;
}

export async function startRealOidc(redirectUri: string, host = "127.0.0.91", options: RealOidcOptions = {}): Promise<RealOidc> {
  const clientId = "control-plane";
  const clientSecret = "real-oidc-provider-client-secret-0123456789";
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
  const state: RealOidc = {
    issuer,
    clientId,
    clientSecret,
    account: { sub: "real-user-1", email: "carol@example.com", email_verified: true, name: "Carol" },
    browse: async () => new URL(issuer),
    close: async () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const provider = new Provider(issuer, {
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "op-1", alg: "RS256", use: "sig" }] },
    clients: [
      { client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], token_endpoint_auth_method: "client_secret_basic" },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: options.conformIdTokenClaims ?? false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ ...state.account, sub: id }) }),
  });
  provider.proxy = false;
  const callback = provider.callback();
  server.on("request", (req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      void (async () => {
        await provider.interactionDetails(req, res);
        const grant = new provider.Grant({ accountId: state.account.sub, clientId });
        grant.addOIDCScope("openid email profile");
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: state.account.sub }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      })().catch((e) => {
        res.statusCode = 500;
        res.end(String(e));
      });
      return;
    }
    callback(req, res);
  });
  state.browse = async (start) => {
    const jar = new Map<string, string>();
    let url = new URL(start);
    for (let hop = 0; hop < 10 && url.origin === issuer; hop++) {
      const res = await fetch(url, { redirect: "manual", headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(";");
        const eq = pair!.indexOf("=");
        jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
      }
      const location = res.headers.get("location");
      if (!location) throw new Error(`the provider answered ${res.status} without a redirect: ${(await res.text()).slice(0, 300)}`);
      url = new URL(location, url);
    }
    return url;
  };
  return state;
}
