// GET /settings/firewall/test (spec/catalogue.tsv, group settings; the original's /settings/opnsense/test): asks the
// configured OPNsense API (firewall-api.ts) for its version, ARP table and DHCP leases. Never throws for
// the firewall's faults: they are {ok: false, error}. `kea` says the leases came from Kea.
import type { OutboundHttp } from "../../net/outbound.ts";
import type { FirewallTest } from "../../schemas/settings-admin.ts";
import { defineRead } from "../verb.ts";
import { FIREWALL_PATHS, FirewallError, firewallGet, firewallLeases, type FirewallTarget, firewallTarget } from "./firewall-api.ts";
import { SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { outboundOf, vaultOf } from "../verb-context.ts";

const fail = (error: string): FirewallTest => ({ ok: false, version: null, arp_count: null, lease_count: null, kea: false, error });
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

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

export async function probeFirewall(outbound: OutboundHttp, t: FirewallTarget): Promise<FirewallTest> {
  try {
    const version = versionOf(await firewallGet(outbound, t, FIREWALL_PATHS.firmware));
    if (!version) return fail("The address does not answer like an OPNsense API (no product_version)");
    const arp_count = countOf(await firewallGet(outbound, t, FIREWALL_PATHS.arp));
    const leases = await firewallLeases(outbound, t);
    return { ok: true, version, arp_count, lease_count: countOf(leases.body), kea: leases.kea, error: null };
  } catch (e) {
    if (e instanceof FirewallError) return fail(e.message);
    throw e;
  }
}

export const testFirewall = defineRead({ scope: SETTINGS_WRITE_SCOPE }, async (ctx): Promise<FirewallTest> => {
  const target = await firewallTarget(ctx.db, vaultOf(ctx)).catch(
    () => "The stored API credentials cannot be opened with this server's vault key",
  );
  return typeof target === "string" ? fail(target) : probeFirewall(outboundOf(ctx), target);
});
