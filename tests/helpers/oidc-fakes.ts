// Peers for the OAuth tests, on loopback. A small OpenID provider built with jose (authorization code
// with PKCE, non-interactive: /authorize answers straight back to the client), which can be made to
// misbehave at the token level (tampered signature, wrong nonce, unverified e-mail, rotated keys); and a
// fake of GitHub's OAuth endpoints replaying tests/fixtures/github-oauth/.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";

const b64url = (b: Buffer) => b.toString("base64url");

async function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

async function listen(server: Server, host: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

/** The authorization endpoint's answer: back to the client's redirect_uri with the code and its state. */
function redirectBack(res: ServerResponse, params: URLSearchParams, code: string): void {
  const back = new URL(params.get("redirect_uri")!);
  back.searchParams.set("code", code);
  back.searchParams.set("state", params.get("state")!);
  res.writeHead(302, { location: back.toString() });
  res.end();
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function newKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } };
}

export interface FakeOidcUser {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
}

export interface FakeOidc {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in at the next /authorize. */
  user: FakeOidcUser;
  /**
   * Misbehaviour for the next token answers: `bareIdToken` leaves e-mail and name out of the ID token
   * (UserInfo has them), `userinfoSub` makes UserInfo answer for another subject.
   */
  faults: { tamper: boolean; wrongNonce: boolean; signWith: string | null; bareIdToken?: boolean; userinfoSub?: string | null };
  /** The provider's clock (ms), for the ID token's iat and exp: tests that move the app's clock move this one. */
  clock: () => number;
  /** The Cache-Control header of the JWKS answer (none when null). */
  jwksCacheControl: string | null;
  userinfoRequests: number;
  /** Publishes a new key (signing from now on) and, with `dropOld`, removes the others from the JWKS. */
  rotate(dropOld: boolean): Promise<{ oldKid: string; newKid: string }>;
  jwksFetches: number;
  tokenRequests: { authorization: string | undefined; body: URLSearchParams }[];
  close(): Promise<void>;
}

export async function startFakeOidc(host = "127.0.0.93"): Promise<FakeOidc> {
  const clientId = "cp-test-client";
  const clientSecret = "fake-oidc-client-secret-0123456789";
  const keys: SigningKey[] = [await newKey("k1")];
  let published: SigningKey[] = [...keys];
  let signing = keys[0]!;
  const codes = new Map<string, { nonce: string; challenge: string; redirectUri: string; user: FakeOidcUser }>();
  const accessTokens = new Map<string, FakeOidcUser>();
  let issuer = "";
  const fake: FakeOidc = {
    issuer: "",
    clientId,
    clientSecret,
    user: { sub: "oidc-user-1", email: "alice@example.com", email_verified: true, name: "Alice" },
    faults: { tamper: false, wrongNonce: false, signWith: null },
    jwksFetches: 0,
    clock: () => Date.now(),
    jwksCacheControl: null,
    userinfoRequests: 0,
    tokenRequests: [],
    rotate: async (dropOld) => {
      const oldKid = signing.kid;
      const next = await newKey(`k${keys.length + 1}`);
      keys.push(next);
      published = dropOld ? [next] : [...published, next];
      signing = next;
      return { oldKid, newKid: next.kid };
    },
    close: async () => close(server),
  };
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", issuer);
      if (url.pathname === "/.well-known/openid-configuration")
        return send(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          userinfo_endpoint: `${issuer}/userinfo`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
          code_challenge_methods_supported: ["S256"],
        });
      if (url.pathname === "/jwks") {
        fake.jwksFetches++;
        return send(
          res,
          200,
          { keys: published.map((k) => k.jwk) },
          fake.jwksCacheControl ? { "cache-control": fake.jwksCacheControl } : {},
        );
      }
      if (url.pathname === "/userinfo") {
        fake.userinfoRequests++;
        const user = accessTokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
        if (!user) return send(res, 401, { error: "invalid_token" });
        return send(res, 200, {
          sub: fake.faults.userinfoSub ?? user.sub,
          email: user.email,
          email_verified: user.email_verified ?? true,
          name: user.name,
        });
      }
      if (url.pathname === "/authorize") {
        const p = url.searchParams;
        if (
          p.get("client_id") !== clientId ||
          p.get("response_type") !== "code" ||
          p.get("code_challenge_method") !== "S256" ||
          !p.get("nonce")
        )
          return send(res, 400, { error: "invalid_request" });
        const code = b64url(randomBytes(16));
        codes.set(code, {
          nonce: p.get("nonce")!,
          challenge: p.get("code_challenge")!,
          redirectUri: p.get("redirect_uri")!,
          user: { ...fake.user },
        });
        return redirectBack(res, p, code);
      }
      if (url.pathname === "/token" && req.method === "POST") {
        const body = await readBody(req);
        fake.tokenRequests.push({ authorization: req.headers.authorization, body });
        const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
        if (req.headers.authorization !== basic && body.get("client_secret") !== clientSecret)
          return send(res, 401, { error: "invalid_client" });
        const grant = codes.get(body.get("code") ?? "");
        codes.delete(body.get("code") ?? "");
        const verifier = body.get("code_verifier") ?? "";
        if (
          !grant ||
          grant.redirectUri !== body.get("redirect_uri") ||
          b64url(createHash("sha256").update(verifier).digest()) !== grant.challenge
        )
          return send(res, 400, { error: "invalid_grant" });
        const key = keys.find((k) => k.kid === (fake.faults.signWith ?? signing.kid))!;
        const profile = fake.faults.bareIdToken
          ? {}
          : { email: grant.user.email, email_verified: grant.user.email_verified ?? true, name: grant.user.name };
        let idToken = await new SignJWT({ ...profile, nonce: fake.faults.wrongNonce ? "not-the-nonce" : grant.nonce })
          .setProtectedHeader({ alg: "RS256", kid: key.kid })
          .setIssuer(issuer)
          .setSubject(grant.user.sub)
          .setAudience(clientId)
          .setIssuedAt(Math.floor(fake.clock() / 1000))
          .setExpirationTime(Math.floor(fake.clock() / 1000) + 300)
          .sign(key.privateKey);
        if (fake.faults.tamper) {
          const [h, payload, sig] = idToken.split(".");
          const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
          claims.email = "mallory@example.com";
          idToken = `${h}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${sig}`;
        }
        const accessToken = b64url(randomBytes(16));
        accessTokens.set(accessToken, grant.user);
        return send(res, 200, { access_token: accessToken, token_type: "Bearer", expires_in: 300, id_token: idToken });
      }
      send(res, 404, { error: "not_found" });
    })().catch((e) => send(res, 500, { error: String(e) }));
  });
  issuer = await listen(server, host);
  fake.issuer = issuer;
  return fake;
}

const GITHUB_FIXTURES = join(import.meta.dirname, "../fixtures/github-oauth");
const fixture = (name: string) => readFileSync(join(GITHUB_FIXTURES, name), "utf8");

export interface FakeGitHub {
  url: string;
  clientId: string;
  clientSecret: string;
  state: { unverified: boolean };
  close(): Promise<void>;
}

/** GitHub's /login/oauth/authorize, /login/oauth/access_token, /user and /user/emails; one host serves both bases. */
export async function startFakeGitHub(host = "127.0.0.92"): Promise<FakeGitHub> {
  const clientId = "Iv1.8a61f9b3a7aba766";
  const clientSecret = "fake-github-client-secret-abcdef";
  const token = JSON.parse(fixture("access-token.json")).access_token as string;
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const state = { unverified: false };
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://github.test");
      if (url.pathname === "/login/oauth/authorize") {
        const p = url.searchParams;
        if (p.get("client_id") !== clientId || p.get("scope") !== "user:email")
          return send(res, 400, "bad request", { "content-type": "text/plain" });
        const code = b64url(randomBytes(10));
        codes.set(code, { challenge: p.get("code_challenge") ?? "", redirectUri: p.get("redirect_uri")! });
        return redirectBack(res, p, code);
      }
      if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
        const body = await readBody(req);
        const grant = codes.get(body.get("code") ?? "");
        codes.delete(body.get("code") ?? "");
        const pkce =
          grant &&
          b64url(
            createHash("sha256")
              .update(body.get("code_verifier") ?? "")
              .digest(),
          ) === grant.challenge;
        if (
          !grant ||
          !pkce ||
          body.get("client_id") !== clientId ||
          body.get("client_secret") !== clientSecret ||
          body.get("redirect_uri") !== grant.redirectUri
        )
          return send(res, 200, fixture("bad-verification-code.json"));
        return send(res, 200, fixture("access-token.json"));
      }
      if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, { message: "Requires authentication" });
      if (url.pathname === "/user") return send(res, 200, fixture("user.json"));
      if (url.pathname === "/user/emails")
        return send(res, 200, fixture(state.unverified ? "user-emails-unverified.json" : "user-emails.json"));
      send(res, 404, { message: "Not Found" });
    })().catch((e) => send(res, 500, { error: String(e) }));
  });
  const url = await listen(server, host);
  return { url, clientId, clientSecret, state, close: async () => close(server) };
}
