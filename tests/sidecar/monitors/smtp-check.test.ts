// The smtp check against the smtp-server package on loopback: one server offering STARTTLS with a
// certificate from a test CA, one not offering it, one that refuses the session in its greeting; a
// closed port, a silent peer (the timeout), bad configs and the monitor policy's refusals.
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck } from "../../../net/checks/run-check.ts";
import { closedPort } from "./peers.ts";
import { expectPolicyRefusals, issueCert, metric, type Pem, type SilentPeer, startSilentPeer, testCa } from "./net-peers.ts";

const servers: SMTPServer[] = [];
const ehloNames: string[] = [];
async function smtpPeer(options: SMTPServerOptions): Promise<number> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH"],
    logger: false,
    onConnect: (session, cb) => {
      session.hostNameAppearsAs && ehloNames.push(session.hostNameAppearsAs);
      cb();
    },
    ...options,
  });
  server.on("error", () => {});
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.server.address() as AddressInfo).port;
}

let ca: Pem;
let withTls: number;
let expiring: number;
let plain: number;
let refusing: number;
let silent: SilentPeer;

beforeAll(async () => {
  ca = testCa();
  const leaf = issueCert(ca, ["mail.test", "127.0.0.1"], 30);
  withTls = await smtpPeer({ key: leaf.key, cert: leaf.cert, name: "mail.test" });
  const soon = issueCert(ca, ["mail.test", "127.0.0.1"], 3);
  expiring = await smtpPeer({ key: soon.key, cert: soon.cert, name: "mail.test" });
  plain = await smtpPeer({ hideSTARTTLS: true, name: "plain.test" });
  refusing = await smtpPeer({ name: "busy.test", onConnect: (_session, cb) => cb(new Error("Too busy, come back later")) });
  silent = await startSilentPeer();
});
afterAll(async () => {
  await Promise.all([...servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))), silent?.close()]);
});

const check = (config: Record<string, unknown>) => runCheck({ check_type: "smtp", host: "127.0.0.1", config });

describe("smtp check", () => {
  it("is up on a 220 greeting and a 250 EHLO, then QUITs", async () => {
    const r = await check({ port: plain, ehlo_name: "probe.example" });
    expect(r.up, r.msg).toBe(true);
    expect(r.msg).toMatch(/^SMTP 220 plain\.test/);
    expect(metric(r.samples, "latency_ms")).toBeGreaterThanOrEqual(0);
  });

  it("with starttls: up through STARTTLS on a trusted certificate, naming it", async () => {
    const r = await check({ port: withTls, starttls: true, ca_pem: ca.cert });
    expect(r.up, r.msg).toBe(true);
    expect(r.msg).toMatch(
      /^SMTP 220 mail\.test .*; STARTTLS TLSv1\.3, certificate valid 29 more days; subject CN=mail\.test; issuer CN=Monitor Test CA; SANs DNS:mail\.test, IP Address:127\.0\.0\.1$/,
    );
    expect(metric(r.samples, "cert_days_remaining")).toBe(29);
    expect(metric(r.samples, "tls_handshake_ms")).toBeGreaterThanOrEqual(0);
  });

  it("with starttls: down when it is not offered, the chain is untrusted or the certificate is about to expire", async () => {
    expect((await check({ port: plain, starttls: true })).msg).toBe("no STARTTLS offered");
    expect((await check({ port: withTls, starttls: true })).msg).toBe("certificate not trusted: UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    expect((await check({ port: withTls, starttls: true, verify_chain: false })).up).toBe(true);
    const soon = await check({ port: expiring, starttls: true, ca_pem: ca.cert });
    expect(soon.up).toBe(false);
    expect(soon.msg).toBe("certificate expires in 2 days (threshold 14)");
    expect((await check({ port: expiring, starttls: true, ca_pem: ca.cert, expiry_days: 1 })).up).toBe(true);
    const name = await check({ port: withTls, starttls: true, ca_pem: ca.cert, server_name: "other.test" });
    expect(name.msg).toBe("hostname mismatch: cert is for mail.test, 127.0.0.1, not other.test");
  });

  it("is down on a refusing greeting, a closed port, and a silent peer within its timeout", async () => {
    const refused = await check({ port: refusing });
    expect(refused.up).toBe(false);
    expect(refused.msg).toMatch(/^greeting 554 .*Too busy, come back later.*, not 220$/);
    const closed = await closedPort();
    expect((await check({ port: closed })).msg).toBe(`connect to port ${closed} failed: ECONNREFUSED`);
    const r = await check({ port: silent.port, timeout: 0.3 });
    expect(r.up).toBe(false);
    expect(r.msg).toBe("the greeting failed: timeout");
  });

  it("answers a bad config as invalid", async () => {
    for (const config of [{ port: 0 }, { ehlo_name: "two words" }, { ehlo_name: "x\r\nRCPT TO:<a@b>" }, { starttls: "yes" }]) {
      const r = await check(config);
      expect(r.invalid_config).toBe(true);
      expect(r.msg).toMatch(/^invalid config: /);
    }
  });

  it("honours the monitor policy: a refused address and a name resolving to one", async () => {
    await expectPolicyRefusals("smtp", { port: silent.port, timeout: 1 }, silent);
  });
});
