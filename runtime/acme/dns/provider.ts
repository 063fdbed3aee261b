// The dns-01 seam (docs/acme.md): a DNS provider puts the TXT record `_acme-challenge.<name>` holding the
// key authorization's digest, names the servers that answer for the zone (to see the record arrive), and
// removes it afterwards. Implementations: Cloudflare's v4 API (cloudflare.ts) and RFC 2136 UPDATE with
// TSIG (rfc2136.ts). A provider's refusal is an ApiError 502 naming the provider, the record and the cause.
import { ApiError } from "../../../shared/errors.ts";
import type { DnsServer } from "./transport.ts";

export interface DnsProvider {
  /** "cloudflare" or "rfc2136", for messages and logs. */
  readonly kind: string;
  /** Adds the TXT record `value` at `fqdn` (other TXT values there are kept: a wildcard and its base share one name). */
  present(fqdn: string, value: string, signal?: AbortSignal): Promise<void>;
  /** Removes exactly that TXT value; nothing to remove is not an error. */
  cleanup(fqdn: string, value: string): Promise<void>;
  /** The zone's authoritative servers to ask whether the record is there (after present()). */
  authoritative(fqdn: string): Promise<DnsServer[]>;
}

/** The 502 a provider answers when it cannot do what was asked. */
export function providerFailed(kind: string, action: string, fqdn: string, cause: string, extra: Record<string, unknown> = {}): ApiError {
  const who = kind === "cloudflare" ? "Cloudflare" : "The RFC 2136 DNS server";
  return new ApiError("UPSTREAM_FAILED", `${who} could not ${action} the TXT record ${fqdn}: ${cause}`, { dns_provider: kind, ...extra });
}

/** `_acme-challenge.<name>` for an authorization's identifier (a wildcard's record sits at its base name). */
export const challengeRecordName = (identifier: string) => `_acme-challenge.${identifier.replace(/^\*\./, "")}`;
