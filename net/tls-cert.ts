// The certificate a TLS server presents, read without trusting it (a discovery sweep meets self-signed
// certificates everywhere): subject, issuer, expiry and subject alternative names.
import { connect, type DetailedPeerCertificate, type PeerCertificate } from "node:tls";
import { settleOnce } from "./settle.ts";

export interface TlsCertInfo {
  subject: string | null;
  issuer: string | null;
  /** ISO 8601. */
  not_after: string | null;
  /** As the certificate lists them: "DNS:host", "IP Address:127.0.0.1". */
  san: string[];
}

export interface TlsCertOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  servername?: string;
}

/** "CN=foo, O=bar" from the certificate's name object (multi-valued attributes joined with "+"). */
function nameOf(name: PeerCertificate["subject"] | undefined): string | null {
  if (!name) return null;
  const parts = Object.entries(name).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join("+") : v}`);
  return parts.length ? parts.join(", ") : null;
}

export function certInfo(cert: PeerCertificate | DetailedPeerCertificate): TlsCertInfo {
  const notAfter = cert.valid_to ? new Date(cert.valid_to) : null;
  return {
    subject: nameOf(cert.subject),
    issuer: nameOf(cert.issuer),
    not_after: notAfter && !Number.isNaN(notAfter.getTime()) ? notAfter.toISOString() : null,
    san: cert.subjectaltname ? cert.subjectaltname.split(", ").filter(Boolean) : [],
  };
}

/** Null when no TLS handshake completed in time (not TLS, closed, timeout, aborted). */
export function tlsCert(host: string, port: number, options: TlsCertOptions): Promise<TlsCertInfo | null> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve(null);
    const servername = options.servername ?? (/^[\d.]+$/.test(host) ? undefined : host);
    const socket = connect({ host, port, servername, rejectUnauthorized: false, ALPNProtocols: ["http/1.1"] });
    const finish = settleOnce<TlsCertInfo | null>(resolve, {
      fallback: null,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      release: () => socket.destroy(),
    });
    socket.once("secureConnect", () => {
      const cert = socket.getPeerCertificate();
      finish(cert && Object.keys(cert).length ? certInfo(cert) : null);
    });
    socket.on("error", () => finish(null));
    socket.once("close", () => finish(null));
  });
}
