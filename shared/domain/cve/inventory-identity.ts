// The identity (CPE vendor, product, version) an inventory record is assessed under, derived from its own
// fields when no operator has set one: hardware from vendor and model (no version field: version unknown),
// a compute unit from its `os` text ("Ubuntu 22.04"), a service from its name ("nginx 1.24.0"). Only
// names in the tables below are recognised: guessing a CPE vendor from free text would invent findings.
import { normaliseName } from "./cpe.ts";

export interface DerivedIdentity {
  vendor: string;
  product: string;
  version: string | null;
}

/** Inventory vendor spellings -> NVD's CPE vendor. */
const VENDOR_ALIASES: Record<string, string> = {
  ubiquiti: "ui",
  ubiquiti_networks: "ui",
  "ubiquiti_inc.": "ui",
  tplink: "tp-link",
  tp_link: "tp-link",
  "synology_inc.": "synology",
  qnap_systems: "qnap",
  "mikrotik_(routerboard)": "mikrotik",
  routerboard: "mikrotik",
  hpe: "hp",
  hewlett_packard_enterprise: "hp",
  cisco_systems: "cisco",
  "netgear_inc.": "netgear",
};

export function cpeVendor(vendor: string): string {
  const n = normaliseName(vendor);
  return VENDOR_ALIASES[n] ?? n;
}

/** Operating systems as named in `os` -> CPE vendor and product. */
const OS_PRODUCTS: [RegExp, string, string][] = [
  [/^ubuntu(?:\s+server)?$/i, "canonical", "ubuntu_linux"],
  [/^debian(?:\s+gnu\/linux)?$/i, "debian", "debian_linux"],
  [/^(?:red hat enterprise linux|rhel)$/i, "redhat", "enterprise_linux"],
  [/^fedora$/i, "fedoraproject", "fedora"],
  [/^alpine(?:\s+linux)?$/i, "alpinelinux", "alpine_linux"],
  [/^freebsd$/i, "freebsd", "freebsd"],
  [/^routeros$/i, "mikrotik", "routeros"],
  [/^(?:synology )?dsm$/i, "synology", "diskstation_manager"],
  [/^qts$/i, "qnap", "qts"],
  [/^pfsense(?: ce)?$/i, "netgate", "pfsense"],
  [/^opnsense$/i, "opnsense", "opnsense"],
  [/^proxmox(?: ve| virtual environment)?$/i, "proxmox", "virtual_environment"],
  [/^vmware esxi$/i, "vmware", "esxi"],
];

/** Software as named in a service's name -> CPE vendor and product. */
const SOFTWARE_PRODUCTS: [RegExp, string, string][] = [
  [/^nginx$/i, "f5", "nginx"],
  [/^(?:openssh|sshd)$/i, "openbsd", "openssh"],
  [/^openssl$/i, "openssl", "openssl"],
  [/^(?:apache(?: httpd| http server)?|httpd)$/i, "apache", "http_server"],
  [/^(?:log4j|log4j2|apache log4j)$/i, "apache", "log4j"],
  [/^(?:tomcat|apache tomcat)$/i, "apache", "tomcat"],
  [/^postgres(?:ql)?$/i, "postgresql", "postgresql"],
  [/^(?:mysql)$/i, "oracle", "mysql"],
  [/^mariadb$/i, "mariadb", "mariadb"],
  [/^redis$/i, "redis", "redis"],
  [/^grafana$/i, "grafana", "grafana"],
  [/^(?:gitlab|gitlab ce)$/i, "gitlab", "gitlab"],
  [/^jenkins$/i, "jenkins", "jenkins"],
  [/^(?:samba|smbd)$/i, "samba", "samba"],
  [/^(?:bind|named|bind9)$/i, "isc", "bind"],
  [/^dnsmasq$/i, "thekelleys", "dnsmasq"],
  [/^(?:unifi network|unifi controller|unifi network application)$/i, "ui", "unifi_network_application"],
  [/^nextcloud(?: server)?$/i, "nextcloud", "nextcloud_server"],
  [/^(?:home assistant|home-assistant)$/i, "home-assistant", "home-assistant"],
];

/** "Name 1.2.3" / "Name v1.2.3" / "Name/1.2.3" -> name and version (null without one). */
export function splitNameVersion(text: string): { name: string; version: string | null } {
  const m = /^(.*?)[\s/_-]+v?(\d[\w.+~-]*)$/i.exec(text.trim());
  if (m && m[1]!.trim()) return { name: m[1]!.trim(), version: m[2]! };
  return { name: text.trim(), version: null };
}

function lookup(table: [RegExp, string, string][], text: string | null): DerivedIdentity | null {
  if (!text?.trim()) return null;
  const { name, version } = splitNameVersion(text);
  for (const [re, vendor, product] of table) if (re.test(name)) return { vendor, product, version };
  return null;
}

export function hardwareIdentity(h: { vendor: string | null; model: string | null }): DerivedIdentity | null {
  if (!h.vendor?.trim() || !h.model?.trim()) return null;
  return { vendor: cpeVendor(h.vendor), product: normaliseName(h.model), version: null };
}

export const computeUnitIdentity = (c: { os: string | null }): DerivedIdentity | null => lookup(OS_PRODUCTS, c.os);
export const serviceIdentity = (s: { name: string }): DerivedIdentity | null => lookup(SOFTWARE_PRODUCTS, s.name);
