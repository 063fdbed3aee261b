// The OPNsense API as this server asks it (GET /settings/firewall/test and the `opnsense` scan type):
// where the configured firewall is and its key pair as basic auth (firewallTarget), one GET through
// deps.outbound under the SSRF policy (firewallGet), and the DHCP leases of ISC dhcpd or, on a firewall
// running Kea instead (its dhcpv4 endpoint answers 404), of Kea. The firewall's faults are FirewallError
// with a sentence an operator can act on; the key and secret never appear in one.
import type { Db } from "../../db/database.ts";
import type { OutboundPolicy } from "../../domain/net/outbound-policy.ts";
import { OutboundError, type OutboundHttp } from "../../net/outbound.ts";
import type { Vault } from "../../vault/vault.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import { FIREWALL_SECTION } from "./firewall-settings.ts";
import { openSectionSecret, readSection } from "./secret-section.ts";

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 4 * 1024 * 1024;
export const FIREWALL_PATHS = {
  firmware: "/api/core/firmware/status",
  arp: "/api/diagnostics/interface/getArp",
  leases: "/api/dhcpv4/leases/searchLease",
  keaLeases: "/api/kea/leases4/search",
} as const;

export const FIREWALL_NOT_CONFIGURED = "OPNsense host is not configured";
export const FIREWALL_NO_CREDENTIALS = "OPNsense API credentials are not configured";

/** A fault of the firewall or of the way to it; `reason` is a scan job's error_reason. */
export class FirewallError extends Error {
  readonly reason: "firewall_not_configured" | "firewall_refused" | "firewall_error" | "firewall_unreachable";
  constructor(message: string, reason: FirewallError["reason"] = "firewall_error") {
    super(message);
    this.reason = reason;
  }
}

export interface FirewallTarget {
  base: string;
  auth: string;
  verifySsl: boolean;
  policy: OutboundPolicy;
}

/** The JSON of a GET, or null on a 404 (an endpoint this firewall does not have). */
export async function firewallGet(outbound: OutboundHttp, t: FirewallTarget, path: string, signal?: AbortSignal): Promise<unknown> {
  let res;
  try {
    res = await outbound.request({
      method: "GET",
      url: `${t.base}${path}`,
      headers: { accept: "application/json", authorization: t.auth },
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
      verifySsl: t.verifySsl,
      policy: t.policy,
      ...(signal ? { signal } : {}),
    });
  } catch (e) {
    if (e instanceof OutboundError) {
      throw e.code === "refused"
        ? new FirewallError(`Refused by the outbound policy: ${e.message}`, "firewall_unreachable")
        : new FirewallError(`OPNsense unreachable: ${e.message}`, "firewall_unreachable");
    }
    throw e;
  }
  if (res.status === 404) return null;
  if (res.status === 401 || res.status === 403)
    throw new FirewallError(`OPNsense refused the API key (HTTP ${res.status})`, "firewall_refused");
  if (res.status !== 200) throw new FirewallError(`OPNsense answered HTTP ${res.status} for ${path}`);
  try {
    return res.json();
  } catch {
    throw new FirewallError(`OPNsense's answer for ${path} is not JSON`);
  }
}

/** The DHCP leases: ISC dhcpd's search answer, or Kea's when the dhcpv4 module is missing (`kea` true); null when neither exists. */
export async function firewallLeases(
  outbound: OutboundHttp,
  t: FirewallTarget,
  signal?: AbortSignal,
): Promise<{ body: unknown; kea: boolean }> {
  const isc = await firewallGet(outbound, t, FIREWALL_PATHS.leases, signal);
  if (isc !== null) return { body: isc, kea: false };
  const kea = await firewallGet(outbound, t, FIREWALL_PATHS.keaLeases, signal);
  return { body: kea, kea: kea !== null };
}

/** The configured firewall, or the sentence saying what is missing (the reference's wording). */
export async function firewallTarget(db: Db, vault: Vault): Promise<FirewallTarget | string> {
  const section = await readSection(db, FIREWALL_SECTION);
  const url = section.fields.firewall_url;
  if (typeof url !== "string" || !url) return FIREWALL_NOT_CONFIGURED;
  const [key, secret] = await Promise.all([
    openSectionSecret(db, vault, FIREWALL_SECTION, "firewall_api_key"),
    openSectionSecret(db, vault, FIREWALL_SECTION, "firewall_api_secret"),
  ]);
  if (!key || !secret) return FIREWALL_NO_CREDENTIALS;
  const auth = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${key}:${secret}`)))}`;
  return {
    base: url.replace(/\/+$/, ""),
    auth,
    verifySsl: section.fields.firewall_verify_tls !== false,
    policy: await readOutboundPolicy(db),
  };
}

/** What is missing before the firewall can be asked (no vault needed: only whether the secrets are stored), or null. */
export async function firewallMissing(db: Db): Promise<string | null> {
  const section = await readSection(db, FIREWALL_SECTION);
  if (typeof section.fields.firewall_url !== "string" || !section.fields.firewall_url) return FIREWALL_NOT_CONFIGURED;
  return section.secrets.has("firewall_api_key") && section.secrets.has("firewall_api_secret") ? null : FIREWALL_NO_CREDENTIALS;
}
