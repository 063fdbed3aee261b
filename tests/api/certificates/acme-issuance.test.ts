// ACME issuance against a real Pebble CA (tests/helpers/pebble.ts): http-01 end to end through
// deps.acme.issue with the challenge served by our own GET /.well-known/acme-challenge/{token}; one
// account row reused across orders; a CA that cannot validate → 502 with its detail; dns-01 without
// DNS settings → 422 (dns-01 itself: acme-dns01-*.test.ts).
import { serve } from "@hono/node-server";
import { X509Certificate, createPrivateKey, createPublicKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../../shared/errors.ts";
import { type TestApp, createTestApp } from "../../helpers/app.ts";
import { type Pebble, pebbleInstalled, startPebble } from "../../helpers/pebble.ts";

const SERVER_IP = "127.0.0.83";
const HTTP_PORT = 5002;
const installed = pebbleInstalled();
if (!installed) console.warn("acme-issuance: pebble / pebble-challtestsrv not on PATH; the ACME tests are skipped (CI installs them)");

describe.skipIf(!installed)("ACME issuance against Pebble", () => {
  let pebble: Pebble;
  let t: TestApp;
  let server: ReturnType<typeof serve>;

  beforeAll(async () => {
    pebble = await startPebble({ answerIp: SERVER_IP, httpPort: HTTP_PORT });
    t = await createTestApp({
      SVC_ACME_DIRECTORY_URL: pebble.directoryUrl,
      SVC_ACME_STAGING_DIRECTORY_URL: pebble.directoryUrl,
      SVC_ACME_CA_FILE: pebble.caFile,
    });
    server = serve({ fetch: t.app.fetch, hostname: SERVER_IP, port: HTTP_PORT });
  }, 30_000);

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await t?.close();
    await pebble?.close();
  });

  it("issues over http-01: the chain parses, Pebble's intermediate signed it, it covers the name, the key matches; challenge rows are removed", async () => {
    const issued = await t.runtime.deps.acme!.issue({ domain: "cp.test", challenge: "http-01", staging: false });
    expect(issued.key_pem).toContain("BEGIN PRIVATE KEY");
    const leaf = new X509Certificate(issued.cert_pem);
    expect(leaf.checkHost("cp.test")).toBe("cp.test");
    const intermediate = new X509Certificate(await pebble.intermediatePem());
    expect(leaf.checkIssued(intermediate)).toBe(true);
    expect(leaf.verify(intermediate.publicKey)).toBe(true);
    const fromKey = createPublicKey(createPrivateKey(issued.key_pem)).export({ type: "spki", format: "der" });
    expect(Buffer.compare(fromKey, leaf.publicKey.export({ type: "spki", format: "der" }))).toBe(0);
    expect(await t.sql`SELECT token FROM acme_challenges`).toHaveLength(0);
  }, 60_000);

  it("reuses the one account (sealed by the vault) across orders", async () => {
    await t.runtime.deps.acme!.issue({ domain: "second.cp.test", challenge: "http-01", staging: false });
    const rows = await t.sql<
      { name: string; value: string }[]
    >`SELECT name, value FROM server_secrets WHERE name LIKE 'acme.account_key.%'`;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.name).toBe(`acme.account_key.${pebble.directoryUrl}`);
    expect(rows[0]!.value).not.toContain("PRIVATE KEY");
  }, 60_000);

  it("serves a recorded key authorization as text/plain and 404s unknown, expired and malformed tokens", async () => {
    const token = "tok_abcdefghijklmnop";
    await t.sql`INSERT INTO acme_challenges (token, key_authorization, expires_at) VALUES (${token}, 'tok.thumb', now() + interval '1 minute'), ('expired_abcdefghijkl', 'x.y', now() - interval '1 second')`;
    const ok = await t.app.request(`/.well-known/acme-challenge/${token}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe("tok.thumb");
    for (const bad of ["unknown_abcdefghijklm", "expired_abcdefghijkl", "bad.token%20with$chars"])
      expect((await t.app.request(`/.well-known/acme-challenge/${bad}`)).status).toBe(404);
  });

  it("answers 502 with the CA's detail when the challenge cannot be validated, and no certificate", async () => {
    // The name resolves to the server, but the server is not answering http-01 for it any more.
    await new Promise((r) => server.close(r));
    try {
      const err = await t.runtime.deps
        .acme!.issue({ domain: "down.cp.test", challenge: "http-01", staging: false })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(502);
      expect(String((err as ApiError).detail)).toMatch(/down\.cp\.test: .*(connect|refused|Connection)/i);
    } finally {
      server = serve({ fetch: t.app.fetch, hostname: SERVER_IP, port: HTTP_PORT });
    }
  }, 60_000);

  it("refuses dns-01 without ACME DNS settings and a wildcard over http-01 with 422", async () => {
    for (const req of [
      { domain: "cp.test", challenge: "dns-01" as const },
      { domain: "*.cp.test", challenge: "http-01" as const },
    ]) {
      const err = await t.runtime.deps.acme!.issue({ ...req, staging: false }).catch((e: unknown) => e);
      expect((err as ApiError).status).toBe(422);
    }
  });
});
