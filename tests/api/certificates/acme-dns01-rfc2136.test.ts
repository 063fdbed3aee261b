// dns-01 through RFC 2136 against a real BIND 9 (tests/helpers/bind.ts) and a real Pebble resolving
// through that BIND: the TSIG-signed UPDATE adds the TXT record, Pebble validates it from BIND, the
// record is deleted afterwards (checked with Node's own resolver, not our DNS code). HMAC-SHA256 and
// HMAC-SHA512 keys; a wrong secret (NOTAUTH/BADSIG), an unknown key (NOTAUTH/BADKEY) and a zone that
// refuses updates (REFUSED) answer 502 with the server's answer and leave nothing behind.
import { X509Certificate } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiError } from "../../../shared/errors.ts";
import { type AcmeDnsApp, createAcmeDnsApp } from "../../helpers/acme-dns.ts";
import { type Bind, bindUnusable, startBind } from "../../helpers/bind.ts";
import { type Pebble, pebbleInstalled, startPebble } from "../../helpers/pebble.ts";

// G2's loopback addresses: BIND .156 (port 5353), Pebble .155.
const BIND_HOST = "127.0.0.156";
const BIND_PORT = 5353;
const KEY256 = { name: "acme-256.", algorithm: "hmac-sha256", secret: "/7Dk1z9YxcWWntNHYKuYDkWHfblFANUx+aCaIjlMZZw=" };
const KEY512 = {
  name: "acme-512.",
  algorithm: "hmac-sha512",
  secret: "oQrRjUpbOjdkUOV8vJu8OgA587pDgUGlitV6gLr4cwp1ZU2zVwOwhK2gCdYgcVmTo9muY2aDIobBxYAH6tIvCA==",
};
const unusable = pebbleInstalled() ? bindUnusable(BIND_HOST) : "pebble / pebble-challtestsrv not on PATH";
const installed = unusable === null;
if (!installed) console.warn(`acme-dns01-rfc2136: ${unusable}; skipped (CI installs pebble and bind9)`);

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as ApiError,
  );

describe.skipIf(!installed)("ACME dns-01 through RFC 2136 (BIND) against Pebble", () => {
  let bind: Bind;
  let pebble: Pebble;
  let a: AcmeDnsApp;
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  /** The TXT values BIND answers at a name (none: NXDOMAIN or no data). */
  const txt = (name: string) =>
    resolver.resolveTxt(name).then(
      (r) => r.map((parts) => parts.join("")),
      (e: NodeJS.ErrnoException) => (e.code === "ENOTFOUND" || e.code === "ENODATA" ? [] : Promise.reject(e)),
    );
  const rfc2136 = (key: { name: string; algorithm: string; secret: string }, extra: Record<string, unknown> = {}) =>
    a.setDns({
      provider: "rfc2136",
      server: BIND_HOST,
      port: BIND_PORT,
      tsig_name: key.name,
      tsig_algorithm: key.algorithm,
      tsig_secret: key.secret,
      ...extra,
    });

  beforeAll(async () => {
    bind = await startBind({
      host: BIND_HOST,
      port: BIND_PORT,
      keys: [KEY256, KEY512, { name: "not-allowed.", algorithm: "hmac-sha256", secret: KEY256.secret }],
      zones: [
        { name: "bind.test", updaters: [KEY256.name, KEY512.name] },
        { name: "locked.test", updaters: [] },
      ],
    });
    resolver.setServers([`${BIND_HOST}:${BIND_PORT}`]);
    pebble = await startPebble({ host: "127.0.0.155", answerIp: "127.0.0.157", httpPort: 5002, dnsServer: `${BIND_HOST}:${BIND_PORT}` });
    a = await createAcmeDnsApp(pebble, { SVC_ACME_DNS_PROPAGATION_S: "5" });
  }, 40_000);

  afterAll(async () => {
    await a?.t.close();
    await pebble?.close();
    await bind?.close();
  });

  it("issues a wildcard certificate with an HMAC-SHA256 key; the TXT record is gone afterwards", async () => {
    expect((await rfc2136(KEY256)).status).toBe(200);
    const issued = await a.t.runtime.deps.acme!.issue({ domain: "*.bind.test", challenge: "dns-01", staging: false });
    const leaf = new X509Certificate(issued.cert_pem);
    expect(leaf.subjectAltName).toBe("DNS:*.bind.test");
    expect(leaf.verify(new X509Certificate(await pebble.intermediatePem()).publicKey)).toBe(true);
    expect(await txt("_acme-challenge.bind.test")).toEqual([]);
  }, 60_000);

  it("issues with an HMAC-SHA512 key for a name below the zone", async () => {
    expect((await rfc2136(KEY512)).status).toBe(200);
    const issued = await a.t.runtime.deps.acme!.issue({ domain: "www.lab.bind.test", challenge: "dns-01", staging: false });
    expect(new X509Certificate(issued.cert_pem).checkHost("www.lab.bind.test")).toBe("www.lab.bind.test");
    expect(await txt("_acme-challenge.www.lab.bind.test")).toEqual([]);
  }, 60_000);

  it("answers 502 NOTAUTH (BADSIG) for a wrong secret, and adds nothing", async () => {
    expect((await rfc2136(KEY256, { tsig_secret: KEY512.secret })).status).toBe(200);
    const err = await failure(a.t.runtime.deps.acme!.issue({ domain: "bad.bind.test", challenge: "dns-01", staging: false }));
    expect(err.status).toBe(502);
    expect(err.detail).toBe(
      `The RFC 2136 DNS server could not add the TXT record _acme-challenge.bad.bind.test: ${BIND_HOST}:${BIND_PORT} answered NOTAUTH (TSIG BADSIG) for zone bind.test`,
    );
    expect(err.extra).toMatchObject({ dns_provider: "rfc2136", dns_server: `${BIND_HOST}:${BIND_PORT}`, zone: "bind.test" });
    expect(await txt("_acme-challenge.bad.bind.test")).toEqual([]);
  }, 30_000);

  it("answers 502 NOTAUTH (BADKEY) for a key the server does not know", async () => {
    expect((await rfc2136({ ...KEY256, name: "unknown-key." })).status).toBe(200);
    const err = await failure(a.t.runtime.deps.acme!.issue({ domain: "bad.bind.test", challenge: "dns-01", staging: false }));
    expect(err.status).toBe(502);
    expect(err.detail).toMatch(/answered NOTAUTH \(TSIG BADKEY\) for zone bind\.test$/);
  }, 30_000);

  it("answers 502 REFUSED when the key may not update the zone, and adds nothing", async () => {
    expect((await rfc2136({ ...KEY256, name: "not-allowed." })).status).toBe(200);
    const err = await failure(a.t.runtime.deps.acme!.issue({ domain: "*.locked.test", challenge: "dns-01", staging: false }));
    expect(err.status).toBe(502);
    expect(err.detail).toBe(
      `The RFC 2136 DNS server could not add the TXT record _acme-challenge.locked.test: ${BIND_HOST}:${BIND_PORT} answered REFUSED for zone locked.test`,
    );
    expect(await txt("_acme-challenge.locked.test")).toEqual([]);
  }, 30_000);

  it("answers 502 when the server is not authoritative for the name", async () => {
    expect((await rfc2136(KEY256)).status).toBe(200);
    const err = await failure(a.t.runtime.deps.acme!.issue({ domain: "www.elsewhere.test", challenge: "dns-01", staging: false }));
    expect(err.status).toBe(502);
    expect(err.detail).toMatch(
      /^The RFC 2136 DNS server could not find the zone of the TXT record _acme-challenge\.www\.elsewhere\.test: .*(REFUSED|not authoritative)/,
    );
  }, 30_000);

  it("answers 502 naming the outbound policy when it forbids the server's address", async () => {
    const strict = a.t.sql.json({ allow_private: true, allow_loopback: false, allow_link_local: false });
    await a.t.sql`update app_settings set value = ${strict} where key = 'outbound_policy'`;
    try {
      const err = await failure(a.t.runtime.deps.acme!.issue({ domain: "x.bind.test", challenge: "dns-01", staging: false }));
      expect(err.status).toBe(502);
      expect(err.detail).toMatch(/loopback addresses are refused by the outbound policy/);
    } finally {
      const open = a.t.sql.json({ allow_private: true, allow_loopback: true, allow_link_local: false });
      await a.t.sql`update app_settings set value = ${open} where key = 'outbound_policy'`;
    }
  }, 30_000);
});
