// runtime/tls/node-tls.ts against a real HTTPS server on 127.0.0.72: a reload swaps the certificate new
// connections see; a certificate with a key that is not its own is refused (false) and the previous one
// stays; a reload before the server listens says false.
import { createServer, type Server } from "node:https";
import { connect } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Logger } from "../../../shared/logger.ts";
import { generateSelfSigned } from "../../../shared/verbs/certificates/x509.ts";
import { NodeTls, leafFingerprint } from "../../../runtime/tls/node-tls.ts";

const HOST = "127.0.0.72";
const lines: string[] = [];
const logger: Logger = {
  debug: () => {},
  info: (m) => void lines.push(m),
  warn: (m) => void lines.push(m),
  error: (m) => void lines.push(m),
};
let server: Server;
let port: number;

function served(): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: HOST, port, rejectUnauthorized: false, timeout: 5000 }, () => {
      const fp = socket.getPeerCertificate().fingerprint256.replace(/:/g, "").toLowerCase();
      socket.end();
      resolve(fp);
    });
    socket.once("error", reject);
    socket.once("timeout", () => socket.destroy(new Error("timed out")));
  });
}

let a: { cert_pem: string; key_pem: string };
let b: { cert_pem: string; key_pem: string };

beforeAll(async () => {
  [a, b] = await Promise.all([generateSelfSigned(HOST, new Date()), generateSelfSigned(HOST, new Date())]);
  server = createServer({ cert: a.cert_pem, key: a.key_pem }, (_req, res) => res.end("ok"));
  await new Promise<void>((r) => server.listen(0, HOST, r));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("NodeTls", () => {
  it("says false before the HTTPS server is attached", async () => {
    expect(await new NodeTls(logger).reload(b.cert_pem, b.key_pem)).toBe(false);
  });

  it("reloads: new connections see the new certificate; a mismatched key is refused and the old one stays", async () => {
    const tls = new NodeTls(logger);
    tls.attach(server, a.cert_pem);
    expect(tls.fingerprint).toBe(leafFingerprint(a.cert_pem));
    expect(await served()).toBe(leafFingerprint(a.cert_pem));

    expect(await tls.reload(b.cert_pem, a.key_pem)).toBe(false);
    expect(lines.some((l) => /reload failed/.test(l))).toBe(true);
    expect(await served()).toBe(leafFingerprint(a.cert_pem));
    expect(tls.fingerprint).toBe(leafFingerprint(a.cert_pem));

    expect(await tls.reload(b.cert_pem, b.key_pem)).toBe(true);
    expect(await served()).toBe(leafFingerprint(b.cert_pem));
    expect(tls.fingerprint).toBe(leafFingerprint(b.cert_pem));
  });
});
