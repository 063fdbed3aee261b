// The hosts an OPNsense firewall knows (the `opnsense` scan type): its ARP table (diagnostics getArp, a
// bare list) and its DHCP leases (ISC dhcpd's searchLease or Kea's leases4 search, both {rows: [...]}),
// joined by address into one record per host with what the firewall says about it: MAC, hostname, the
// interface it was seen on and the lease's state. Expired ARP entries, free/expired/released ISC leases and
// declined or reclaimed Kea leases are left out (counted): they are not hosts the network has now; a
// static ISC mapping is kept (a reserved device) even while offline. Pure: the runner fetches, this reads.
import { emptyFinding, type HostFinding } from "./finding.ts";
import { ipToInt } from "./targets.ts";

/** At most this many hosts are taken from one firewall (a /18 of leases); the rest are counted as skipped. */
export const MAX_FIREWALL_HOSTS = 16_384;

export interface FirewallHost {
  ip_address: string;
  mac_address: string | null;
  hostname: string | null;
  /** The firewall's interface name (igb1, vlan0.20) and its description (LAN). */
  interface: string | null;
  interface_description: string | null;
  /** active, static, expired ... (ISC) or active, declined, expired-reclaimed (Kea); null when only ARP saw it. */
  lease_state: string | null;
  /** dynamic | static (ISC), reserved | dynamic (Kea); null when only ARP saw it. */
  lease_type: string | null;
  sources: ("opnsense_arp" | "opnsense_dhcp")[];
}

export interface FirewallHosts {
  hosts: FirewallHost[];
  /** Entries left out: expired or inactive, not an IPv4 address, or over MAX_FIREWALL_HOSTS. */
  skipped: number;
}

type Row = Record<string, unknown>;
const isRow = (x: unknown): x is Row => typeof x === "object" && x !== null && !Array.isArray(x);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);
const KEA_STATES: Record<string, string> = { "0": "active", "1": "declined", "2": "expired-reclaimed" };

/** The rows of an answer: a bare list (getArp) or a bootgrid search answer ({rows}). */
export function answerRows(body: unknown): Row[] | null {
  if (Array.isArray(body)) return body.filter(isRow);
  if (isRow(body) && Array.isArray(body.rows)) return body.rows.filter(isRow);
  return null;
}

interface Lease {
  ip: string;
  mac: string | null;
  hostname: string | null;
  intf: string | null;
  intfDescr: string | null;
  state: string;
  type: string | null;
  live: boolean;
}

function leaseOf(r: Row, kea: boolean): Lease | null {
  const ip = str(r.address);
  if (!ip) return null;
  const common = { ip, hostname: str(r.hostname) ?? str(r["client-hostname"]), intf: str(r.if), intfDescr: str(r.if_descr) };
  if (kea) {
    const state = KEA_STATES[String(r.state ?? "0")] ?? `state ${String(r.state)}`;
    const type = r.is_reserved === true || r.is_reserved === "1" || r.is_reserved === "true" ? "reserved" : "dynamic";
    return { ...common, mac: str(r.hwaddr), state, type, live: state === "active" };
  }
  const type = str(r.type);
  const state = str(r.state) ?? (type === "static" ? "static" : "unknown");
  return { ...common, mac: str(r.mac), state, type, live: state === "active" || type === "static" };
}

export function firewallHosts(arp: unknown, leases: unknown, kea: boolean): FirewallHosts {
  const byIp = new Map<string, FirewallHost>();
  const order = new Map<FirewallHost, number>();
  let skipped = 0;
  const take = (ip: string): FirewallHost | null => {
    const known = byIp.get(ip);
    if (known) return known;
    const n = ipToInt(ip);
    if (n === null || byIp.size >= MAX_FIREWALL_HOSTS) return null;
    const host: FirewallHost = {
      ip_address: ip,
      mac_address: null,
      hostname: null,
      interface: null,
      interface_description: null,
      lease_state: null,
      lease_type: null,
      sources: [],
    };
    byIp.set(ip, host);
    order.set(host, n);
    return host;
  };
  for (const r of answerRows(arp) ?? []) {
    const ip = str(r.ip);
    const host = ip && r.expired !== true ? take(ip) : null;
    if (!host) {
      skipped++;
      continue;
    }
    host.mac_address ??= str(r.mac);
    host.hostname ??= str(r.hostname);
    host.interface ??= str(r.intf);
    host.interface_description ??= str(r.intf_description);
    if (!host.sources.includes("opnsense_arp")) host.sources.push("opnsense_arp");
  }
  for (const r of answerRows(leases) ?? []) {
    const lease = leaseOf(r, kea);
    const host = lease?.live ? take(lease.ip) : null;
    if (!lease || !host) {
      skipped++;
      continue;
    }
    // The client's own name (the lease) is preferred over the firewall's reverse lookup (the ARP table).
    host.hostname = lease.hostname ?? host.hostname;
    host.mac_address ??= lease.mac;
    host.interface ??= lease.intf;
    host.interface_description ??= lease.intfDescr;
    host.lease_state = lease.state;
    host.lease_type = lease.type;
    if (!host.sources.includes("opnsense_dhcp")) host.sources.push("opnsense_dhcp");
  }
  const hosts = [...byIp.values()].sort((a, b) => order.get(a)! - order.get(b)!);
  return { hosts, skipped };
}

/** A host as a scan finding: no vendor given, so the results' OUI lookup names it from the MAC. */
export function findingOf(h: FirewallHost): HostFinding {
  return { ...emptyFinding(h.ip_address), mac_address: h.mac_address, hostname: h.hostname, sources: [...h.sources] };
}
