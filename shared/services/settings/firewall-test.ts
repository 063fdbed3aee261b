// GET /settings/firewall/test (reference-contracts 6; the original's /settings/opnsense/test): asks the
// configured OPNsense API for its version, ARP table and DHCP leases through deps.outbound (the SSRF
// policy), with the API key and secret as basic auth. Never throws for the firewall's faults: they are
// {ok: false, error}. A firewall running Kea instead of ISC dhcpd has no dhcpv4 leases endpoint (404):
// its leases come from the Kea one and `kea` says so.
import type { Db } from "../../db/database.ts";
import type { OutboundPolicy } from "../../domain/net/outbound-policy.ts";
import { OutboundError, type OutboundHttp } from "../../net/outbound.ts";
import type { FirewallTest } from "../../schemas/settings-admin.ts";
import type { Vault } from "../../vault/vault.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import { defineRead } from "../verb.ts";
import { FIREWALL_SECTION } from "./firewall-settings.ts";
import { SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { openSectionSecret, readSection } from "./secret-section.ts";

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 4 * 1024 * 1024;
export const FIREWALL_PATHS = {
  firmware: "/api/core/firmware/status",
  arp: "/api/diagnostics/interface/getArp",
  leases: "/api/dhcpv4/leases/searchLease",
  keaLeases: "/api/kea/leases4/search",
} as const;

class FirewallError extends Error {}

interface Target {
  base: string;
  auth: string;
  verifySsl: boolean;
  policy: OutboundPolicy;
}

const fail = (error: string): FirewallTest => ({ ok: false, version: null, arp_count: null, lease_count: null, kea: false, error });
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** The JSON of a GET, or null on a 404 (an endpoint this firewall does not have). */
async function get(outbound: OutboundHttp, t: Target, path: string): Promise<unknown> {
  const res = await outbound.request({ method: "GET", url: `${t.base}${path}`, headers: { accept: "application/json", authorization: t.auth }, timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES, verifySsl: t.verifySsl, policy: t.policy });
  if (res.status === 404) return null;
  if (res.status === 401 || res.status === 403) throw new FirewallError(`OPNsense refused the API key (HTTP ${res.status})`);
  if (res.status !== 200) throw new FirewallError(`OPNsense answered HTTP ${res.status} for ${path}`);
  try {
    return res.json();
  } catch {
    throw new FirewallError(`OPNsense's answer for ${path} is not JSON`);
  }
}

/** A count from a bare list ([...]) or a search answer ({total, rows}). */
function countOf(body: unknown): number | null {
  if (Array.isArray(body)) return body.length;
  if (isObject(body)) {
    if (typeof body.total === "number") return body.total;
    if (Array.isArray(body.rows)) return body.rows.length;
  }
  return null;
}

/** firmware/status names the version at the top (older releases) or under `product` (newer). */
function versionOf(body: unknown): string | null {
  if (!isObject(body)) return null;
  const v = body.product_version ?? (isObject(body.product) ? body.product.product_version : undefined);
  return typeof v === "string" && v ? v : null;
}

export async function probeFirewall(outbound: OutboundHttp, t: Target): Promise<FirewallTest> {
  try {
    const version = versionOf(await get(outbound, t, FIREWALL_PATHS.firmware));
    if (!version) return fail("The address does not answer like an OPNsense API (no product_version)");
    const arp_count = countOf(await get(outbound, t, FIREWALL_PATHS.arp));
    let leases = await get(outbound, t, FIREWALL_PATHS.leases);
    let kea = false;
    if (leases === null) {
      leases = await get(outbound, t, FIREWALL_PATHS.keaLeases);
      kea = leases !== null;
    }
    return { ok: true, version, arp_count, lease_count: countOf(leases), kea, error: null };
  } catch (e) {
    if (e instanceof FirewallError) return fail(e.message);
    if (e instanceof OutboundError) return fail(e.code === "refused" ? `Refused by the outbound policy: ${e.message}` : `OPNsense unreachable: ${e.message}`);
    throw e;
  }
}

export async function firewallTarget(db: Db, vault: Vault): Promise<Target | string> {
  const section = await readSection(db, FIREWALL_SECTION);
  const url = section.fields.firewall_url;
  if (typeof url !== "string" || !url) return "OPNsense host is not configured";
  const [key, secret] = await Promise.all([openSectionSecret(db, vault, FIREWALL_SECTION, "firewall_api_key"), openSectionSecret(db, vault, FIREWALL_SECTION, "firewall_api_secret")]);
  if (!key || !secret) return "OPNsense API credentials are not configured";
  const auth = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${key}:${secret}`)))}`;
  return { base: url.replace(/\/+$/, ""), auth, verifySsl: section.fields.firewall_verify_tls !== false, policy: await readOutboundPolicy(db) };
}

export const testFirewall = defineRead({ scope: SETTINGS_WRITE_SCOPE }, async (ctx, { outbound, vault }: { outbound: OutboundHttp; vault: Vault }): Promise<FirewallTest> => {
  const target = await firewallTarget(ctx.db, vault).catch(() => "The stored API credentials cannot be opened with this server's vault key");
  return typeof target === "string" ? fail(target) : probeFirewall(outbound, target);
});
