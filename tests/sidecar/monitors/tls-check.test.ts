// The tls check against real node:tls servers on loopback with certificates openssl makes for the test:
// one from a test CA (trusted through ca_pem), a self-signed one, one about to expire and one for another
// name; a refused port, a silent peer (the timeout), bad configs and the monitor policy's refusals.
import { createServer, type Server } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck } from "../../../net/checks/run-check.ts";
import { closedPort, selfSignedCert } from "./peers.ts";
import { expectPolicyRefusals, issueCert, metric, type Pem, type SilentPeer, startSilentPeer, testCa } from "./net-peers.ts";

const servers: Server[] = [];
async function tlsPeer(pem: Pem): Promise<number> {
  const server = createServer({ key: pem.key, cert: pem.cert }, (s) => {
    s.on("error", () => {});
    s.end();
  });
  server.on("tlsClientError", () => {});
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

let ca: Pem;
let good: number;
let selfSigned: number;
let expiring: number;
let otherName: number;
let silent: SilentPeer;

beforeAll(async () => {
  ca = testCa();
  good = await tlsPeer(issueCert(ca, ["localhost", "127.0.0.1"], 30));
  selfSigned = await tlsPeer(selfSignedCert(30));
  expiring = await tlsPeer(issueCert(ca, ["localhost", "127.0.0.1"], 3));
  otherName = await tlsPeer(issueCert(ca, ["a.example"], 30));
  silent = await startSilentPeer();
});
afterAll(async () => {
  await Promise.all([...servers.map((s) => new Promise((resolve) => s.close(resolve))), silent?.close()]);
});

const check = (config: Record<string, unknown>, host = "127.0.0.1") => runCheck({ check_type: "tls", host, config });

describe("tls check", () => {
  it("is up on a certificate from a trusted CA, naming its days, subject, issuer and SANs", async () => {
    const r = await check({ port: good, ca_pem: ca.cert });
    expect(r.up, r.msg).toBe(true);
    expect(r.msg).toMatch(
      /^TLSv1\.3, certificate valid 29 more days; subject CN=localhost; issuer CN=Monitor Test CA; SANs DNS:localhost, IP Address:127\.0\.0\.1$/,
    );
    expect(metric(r.samples, "cert_days_remaining")).toBe(29);
    expect(metric(r.samples, "latency_ms")).toBeGreaterThanOrEqual(0);
    // The same server's certificate is not trusted without the CA.
    expect((await check({ port: good })).msg).toBe("certificate not trusted: UNABLE_TO_VERIFY_LEAF_SIGNATURE");
  });

  it("refuses a self-signed certificate unless verify_chain is false", async () => {
    const refused = await check({ port: selfSigned });
    expect(refused.up).toBe(false);
    expect(refused.msg).toBe("certificate not trusted: DEPTH_ZERO_SELF_SIGNED_CERT");
    expect(metric(refused.samples, "cert_days_remaining")).toBe(29);
    expect((await check({ port: selfSigned, verify_chain: false })).up).toBe(true);
  });

  it("is down when the certificate expires within expiry_days (default 14)", async () => {
    const r = await check({ port: expiring, ca_pem: ca.cert });
    expect(r.up).toBe(false);
    expect(r.msg).toBe("certificate expires in 2 days (threshold 14)");
    expect(metric(r.samples, "cert_days_remaining")).toBe(2);
    expect((await check({ port: expiring, ca_pem: ca.cert, expiry_days: 2 })).up).toBe(true);
  });

  it("is down on a certificate for another name unless server_name names it or verify_hostname is false", async () => {
    const r = await check({ port: otherName, ca_pem: ca.cert });
    expect(r.up).toBe(false);
    expect(r.msg).toBe("hostname mismatch: cert is for a.example, not 127.0.0.1");
    expect((await check({ port: otherName, ca_pem: ca.cert, server_name: "a.example" })).up).toBe(true);
    expect((await check({ port: otherName, ca_pem: ca.cert, verify_hostname: false })).up).toBe(true);
  });

  it("is down on a closed port, and on a silent one within its timeout", async () => {
    const closed = await closedPort();
    expect((await check({ port: closed })).msg).toBe(`TLS handshake with port ${closed} failed: ECONNREFUSED`);
    const r = await check({ port: silent.port, timeout: 0.3 });
    expect(r.up).toBe(false);
    expect(r.msg).toBe(`TLS handshake with port ${silent.port} failed: timeout`);
  });

  it("answers a bad config as invalid, without connecting", async () => {
    for (const config of [
      { port: 0 },
      { port: good, ca_pem: "not a certificate" },
      { port: good, expiry_days: -1 },
      { verify_chain: "no" },
    ]) {
      const r = await check(config);
      expect(r.up).toBe(false);
      expect(r.invalid_config).toBe(true);
      expect(r.msg).toMatch(/^invalid config: /);
    }
  });

  it("honours the monitor policy: a refused address and a name resolving to one", async () => {
    await expectPolicyRefusals("tls", { port: silent.port, timeout: 1 }, silent);
  });
});
