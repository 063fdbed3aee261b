// The peer certificate checks the http, tls and smtp types share: the days a certificate has left, the
// expiry threshold's message, and (tls, smtp) the whole verdict on a TLS socket: chain, hostname, expiry,
// with the leaf's subject, issuer and SANs for the result message.
import { checkServerIdentity, type PeerCertificate, type TLSSocket } from "node:tls";

const DAY_MS = 86_400_000;

/** Whole days from now until `validTo` (negative once expired), or null when the date does not parse. */
export function certDaysLeft(validTo: string | undefined): number | null {
  if (!validTo) return null;
  const at = new Date(validTo).getTime();
  return Number.isNaN(at) ? null : Math.floor((at - Date.now()) / DAY_MS);
}

/** The peer certificate's days left on a TLS socket; null on a plain one or without a certificate. */
export function socketCertDaysLeft(socket: unknown): number | null {
  const tls = socket as TLSSocket | null;
  if (!tls || typeof tls.getPeerCertificate !== "function") return null;
  return certDaysLeft(tls.getPeerCertificate()?.valid_to);
}

/** Why `days` left is too few for a threshold of `minDays`, or null when enough. */
export function expiryProblem(days: number, minDays: number): string | null {
  if (days >= minDays) return null;
  if (days < 0) return `certificate expired ${-days} days ago`;
  return `certificate expires in ${days} days (threshold ${minDays})`;
}

export interface CertRules {
  /** The name the certificate must be for (SNI is sent for it when it is not an IP address). */
  serverName: string;
  verifyChain: boolean;
  verifyHostname: boolean;
  expiryDays: number;
}

export type CertVerdict = { ok: true; days: number; summary: string } | { ok: false; days: number | null; problem: string };

const nameOf = (entity: PeerCertificate["subject"] | undefined): string =>
  entity
    ? Object.entries(entity)
        .map(([k, val]) => `${k}=${Array.isArray(val) ? val.join("+") : val}`)
        .join(", ")
    : "(none)";

/** What the certificate says about itself: subject, issuer, SANs (part of every tls/smtp message). */
function describe(cert: PeerCertificate, days: number): string {
  const sans = cert.subjectaltname ? cert.subjectaltname : "none";
  return `certificate valid ${days} more days; subject ${nameOf(cert.subject)}; issuer ${nameOf(cert.issuer)}; SANs ${sans}`;
}

/** The verdict on the certificate of a connected TLS socket under `rules` (the socket was opened without rejecting). */
export function judgeCertificate(socket: TLSSocket, rules: CertRules): CertVerdict {
  const cert = socket.getPeerCertificate();
  if (!cert?.valid_to) return { ok: false, days: null, problem: "the server sent no certificate" };
  const days = certDaysLeft(cert.valid_to);
  if (days === null) return { ok: false, days: null, problem: `certificate expiry ${cert.valid_to} does not parse` };
  const chainError = socket.authorized ? null : String(socket.authorizationError ?? "unverified");
  // An expired certificate is an expiry problem, said as such, not a chain code.
  if (chainError === "CERT_HAS_EXPIRED" && days < 0) return { ok: false, days, problem: `certificate expired ${-days} days ago` };
  if (rules.verifyChain && chainError !== null) return { ok: false, days, problem: `certificate not trusted: ${chainError}` };
  if (rules.verifyHostname) {
    const mismatch = checkServerIdentity(rules.serverName, cert);
    if (mismatch) {
      const names = cert.subjectaltname || nameOf(cert.subject);
      return {
        ok: false,
        days,
        problem: `hostname mismatch: cert is for ${names.replace(/DNS:|IP Address:/g, "")}, not ${rules.serverName}`,
      };
    }
  }
  const expiry = expiryProblem(days, rules.expiryDays);
  if (expiry) return { ok: false, days, problem: expiry };
  return { ok: true, days, summary: describe(cert, days) };
}
