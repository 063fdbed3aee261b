// dns-01 through the Cloudflare provider against a real Pebble: the fake Cloudflare API
// (tests/helpers/fake-cloudflare.ts, replaying tests/fixtures/cloudflare/) forwards created TXT records to
// pebble-challtestsrv, Pebble's DNS, which is also the zone's "name server" the propagation wait asks.
// A wildcard certificate end to end; records removed after success; a 401 from Cloudflare and a CA
// that cannot see the record answer 502 and leave no record behind; no settings → 422.
import { X509Certificate } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiError } from "../../../shared/errors.ts";
import { type AcmeDnsApp, createAcmeDnsApp } from "../../helpers/acme-dns.ts";
import { FAKE_CLOUDFLARE_TOKEN, type FakeCloudflare, startFakeCloudflare } from "../../helpers/fake-cloudflare.ts";
import { type Pebble, pebbleInstalled, startPebble } from "../../helpers/pebble.ts";

// G2's loopback addresses: Pebble .151, challtestsrv .152 (DNS on :53, as the zone's name server), the fake API .154.
const PEBBLE = "127.0.0.151";
const CHALLTESTSRV = "127.0.0.152";
const FAKE_API = "127.0.0.154";
const installed = pebbleInstalled();
if (!installed) console.warn("acme-dns01-cloudflare: pebble / pebble-challtestsrv not on PATH; skipped (CI installs them)");

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as ApiError,
  );

describe.skipIf(!installed)("ACME dns-01 through Cloudflare against Pebble", () => {
  let pebble: Pebble;
  let cf: FakeCloudflare;
  let a: AcmeDnsApp;

  beforeAll(async () => {
    pebble = await startPebble({
      host: PEBBLE,
      answerIp: "127.0.0.153",
      httpPort: 5002,
      challtestsrv: { host: CHALLTESTSRV, dnsPort: 53, managementPort: 8055 },
    });
    cf = await startFakeCloudflare({
      host: FAKE_API,
      challtestsrv: pebble.challtestsrvManagement,
      zones: [
        { name: "cf.test", publishes: true, name_servers: [CHALLTESTSRV] },
        // A zone whose records never reach the CA's resolver: the CA refuses, the wait gives up (bounded).
        { name: "unpublished.test", publishes: false, name_servers: [CHALLTESTSRV] },
      ],
    });
    a = await createAcmeDnsApp(pebble, { SVC_CLOUDFLARE_API_URL: cf.url, SVC_ACME_DNS_PROPAGATION_S: "2" });
  }, 30_000);

  afterAll(async () => {
    await a?.t.close();
    await cf?.close();
    await pebble?.close();
  });

  it("answers 422 naming the settings route while no DNS provider is configured", async () => {
    const err = await failure(a.t.runtime.deps.acme!.issue({ domain: "*.cf.test", challenge: "dns-01", staging: false }));
    expect(err.status).toBe(422);
    expect(JSON.stringify(err.detail)).toContain("PATCH /api/v1/settings/acme-dns");
    expect(cf.requests).toHaveLength(0);
  });

  it("answers 502 naming Cloudflare's 401 when the token is refused, and creates nothing", async () => {
    expect((await a.setDns({ provider: "cloudflare", api_token: "not-the-token" })).status).toBe(200);
    const err = await failure(a.t.runtime.deps.acme!.issue({ domain: "*.cf.test", challenge: "dns-01", staging: false }));
    expect(err.status).toBe(502);
    expect(err.detail).toMatch(
      /^Cloudflare could not find the zone of the TXT record _acme-challenge\.cf\.test: HTTP 401: Authentication error \(code 10000\)/,
    );
    expect(err.extra).toMatchObject({ dns_provider: "cloudflare", status: 401 });
    expect(cf.records()).toEqual([]);
    expect(cf.requests.every((r) => r.authorization === "Bearer not-the-token")).toBe(true);
  }, 30_000);

  it("issues a wildcard certificate: the TXT record created in the zone, seen by the CA, deleted afterwards", async () => {
    expect((await a.setDns({ provider: "cloudflare", api_token: FAKE_CLOUDFLARE_TOKEN })).status).toBe(200);
    cf.requests.length = 0;
    const issued = await a.t.runtime.deps.acme!.issue({ domain: "*.cf.test", challenge: "dns-01", staging: false });
    const leaf = new X509Certificate(issued.cert_pem);
    expect(leaf.subjectAltName).toBe("DNS:*.cf.test");
    expect(leaf.checkHost("anything.cf.test")).toBe("*.cf.test");
    const intermediate = new X509Certificate(await pebble.intermediatePem());
    expect(leaf.verify(intermediate.publicKey)).toBe(true);
    // Walked up from the record's parent to the zone, created one TXT, deleted it by id.
    const calls = cf.requests.map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{32}/g, "<id>")}`);
    expect(calls).toEqual([
      "GET /client/v4/zones?name=cf.test&status=active",
      "POST /client/v4/zones/<id>/dns_records",
      "DELETE /client/v4/zones/<id>/dns_records/<id>",
    ]);
    expect(cf.records()).toEqual([]);
  }, 60_000);

  it("issues for a name below the zone (the lookup walks up the labels)", async () => {
    cf.requests.length = 0;
    const issued = await a.t.runtime.deps.acme!.issue({ domain: "deep.host.cf.test", challenge: "dns-01", staging: false });
    expect(new X509Certificate(issued.cert_pem).checkHost("deep.host.cf.test")).toBe("deep.host.cf.test");
    expect(cf.requests.filter((r) => r.method === "GET").map((r) => new URL(r.path, "http://x").searchParams.get("name"))).toEqual([
      "deep.host.cf.test",
      "host.cf.test",
      "cf.test",
    ]);
    expect(cf.records()).toEqual([]);
  }, 60_000);

  it("answers 502 with the CA's detail when the CA cannot see the record, and removes the record", async () => {
    const err = await failure(a.t.runtime.deps.acme!.issue({ domain: "www.unpublished.test", challenge: "dns-01", staging: false }));
    expect(err.status).toBe(502);
    expect(err.detail).toMatch(
      /^The ACME CA did not issue a certificate for www\.unpublished\.test: No TXT records found for DNS challenge/,
    );
    expect(cf.requests.some((r) => r.method === "POST" && r.path.includes("/dns_records"))).toBe(true);
    expect(cf.records()).toEqual([]);
  }, 60_000);

  it("answers 502 at once when the caller cancels during the propagation wait, and the record is still removed", async () => {
    const caller = new AbortController();
    const pending = failure(
      a.t.runtime.deps.acme!.issue({ domain: "cancel.unpublished.test", challenge: "dns-01", staging: false }, caller.signal),
    );
    const published = Date.now() + 15_000;
    for (let i = 0; i < 1500 && cf.records().length === 0 && Date.now() < published; i++) await new Promise((r) => setTimeout(r, 20));
    expect(cf.records()).toEqual([{ name: "_acme-challenge.cancel.unpublished.test", content: expect.any(String) }]);
    caller.abort();
    const err = await pending;
    expect(err.status).toBe(502);
    expect(err.detail).toBe("The ACME order was cancelled.");
    // The record is removed as soon as the order stops (issuer.ts), not when the order has wound down with
    // the CA (on a loaded machine Pebble took over 40 s to answer that); bounded by time all the same.
    const deadline = Date.now() + 40_000;
    for (let i = 0; i < 2000 && cf.records().length > 0 && Date.now() < deadline; i++) await new Promise((r) => setTimeout(r, 40));
    expect(cf.records()).toEqual([]);
  }, 60_000);

  it("answers 502 when no zone of the account holds the name, and creates nothing", async () => {
    cf.requests.length = 0;
    const err = await failure(a.t.runtime.deps.acme!.issue({ domain: "www.elsewhere.test", challenge: "dns-01", staging: false }));
    expect(err.status).toBe(502);
    expect(err.detail).toMatch(/no active zone of this account holds the name/);
    expect(cf.requests.every((r) => r.method === "GET")).toBe(true);
  }, 30_000);

  it("reaches the API only as the outbound policy allows: loopback refused answers 502 naming the policy", async () => {
    const strict = a.t.sql.json({ allow_private: true, allow_loopback: false, allow_link_local: false });
    await a.t.sql`update app_settings set value = ${strict} where key = 'outbound_policy'`;
    cf.requests.length = 0;
    try {
      const err = await failure(a.t.runtime.deps.acme!.issue({ domain: "*.cf.test", challenge: "dns-01", staging: false }));
      expect(err.status).toBe(502);
      expect(err.detail).toMatch(
        /^Cloudflare could not find the zone of the TXT record _acme-challenge\.cf\.test: refused by the outbound policy: .*loopback/,
      );
      expect(cf.requests).toHaveLength(0);
    } finally {
      const open = a.t.sql.json({ allow_private: true, allow_loopback: true, allow_link_local: false });
      await a.t.sql`update app_settings set value = ${open} where key = 'outbound_policy'`;
    }
  });

  it("answers 503 when the stored token cannot be opened with this vault key, and calls nobody", async () => {
    const [row] = await a.t.sql<{ value: string }[]>`select value from server_secrets where name = 'settings.acme_dns.api_token'`;
    expect(row!.value).toMatch(/^vault:v1:/);
    await a.t.sql`update server_secrets set value = ${`${row!.value.slice(0, -8)}AAAAAAAA`} where name = 'settings.acme_dns.api_token'`;
    cf.requests.length = 0;
    const err = await failure(a.t.runtime.deps.acme!.issue({ domain: "*.cf.test", challenge: "dns-01", staging: false }));
    expect(err.status).toBe(503);
    expect(err.detail).toMatch(
      /^The ACME DNS credentials cannot be opened with this server's vault key \(\w+\); set them again with PATCH \/api\/v1\/settings\/acme-dns\.$/,
    );
    expect(cf.requests).toHaveLength(0);
  });
});
