// The TLS side of the tls, smtp and grpc types: the certificate rules from a config (verify_chain,
// verify_hostname, expiry_days, server_name, ca_pem) and a handshake, on a new connection (tls) or on a
// connected socket after STARTTLS (smtp), that never rejects the peer itself: cert.ts judges it, so the
// message says which rule failed instead of a bare handshake error.
import { isIP, type LookupFunction, type Socket } from "node:net";
import { connect, type TLSSocket } from "node:tls";
import type { CertRules } from "./cert.ts";
import { type ConfigReader, CheckConfigError, elapsed, reasonOf } from "./result.ts";

export const DEFAULT_EXPIRY_DAYS = 14;

export interface TlsRules extends CertRules {
  /** Trusted CAs (PEM) instead of the system's, from config.ca_pem. */
  ca: string | null;
}

/** The certificate rules from a tls or smtp config; `host` is the monitor's host (the default server name). */
export function tlsRulesOf(config: ConfigReader, host: string): TlsRules {
  const expiryDays = config.number("expiry_days", DEFAULT_EXPIRY_DAYS);
  if (!Number.isInteger(expiryDays) || expiryDays < 0) throw new CheckConfigError("expiry_days must be a whole number of days");
  const ca = config.string("ca_pem", null);
  if (ca !== null && !ca.includes("-----BEGIN CERTIFICATE-----")) throw new CheckConfigError("ca_pem must hold PEM certificates");
  return {
    serverName: config.string("server_name", null) ?? host.replace(/^\[|\]$/g, ""),
    verifyChain: config.boolean("verify_chain", true),
    verifyHostname: config.boolean("verify_hostname", true),
    expiryDays,
    ca,
  };
}

export interface Handshake {
  host: string;
  port: number;
  /** An open connection to secure (STARTTLS); without it, a new connection to host:port. */
  socket?: Socket;
  lookup?: LookupFunction | undefined;
  /** The ALPN protocols to offer (grpc: h2, which an HTTP/2 server requires). */
  alpn?: string[];
}

/** The secured socket and the ms from the start (connect included for a new connection); rejects with the reason. */
export function handshake(target: Handshake, rules: TlsRules, signal: AbortSignal): Promise<{ socket: TLSSocket; ms: number }> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("timeout"));
    const start = performance.now();
    const socket = connect({
      ...(target.socket ? { socket: target.socket } : { host: target.host, port: target.port }),
      ...(target.lookup && !target.socket ? { lookup: target.lookup } : {}),
      // SNI carries names only (RFC 6066 3).
      ...(isIP(rules.serverName) ? {} : { servername: rules.serverName }),
      ...(rules.ca !== null ? { ca: rules.ca } : {}),
      ...(target.alpn ? { ALPNProtocols: target.alpn } : {}),
      rejectUnauthorized: false,
      // The name is cert.ts's to judge (verify_hostname), so `authorized` speaks for the chain alone.
      checkServerIdentity: () => undefined,
    });
    const onAbort = () => {
      socket.destroy();
      reject(new Error("timeout"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    socket.once("secureConnect", () => {
      signal.removeEventListener("abort", onAbort);
      socket.removeAllListeners("error");
      socket.on("error", () => {});
      resolve({ socket, ms: elapsed(start) });
    });
    socket.once("error", (e) => {
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      reject(new Error(reasonOf(e)));
    });
  });
}
