// What a result would become in the inventory (suggest, results?with_inference, new nodes of a merge): a
// role from the knowledge base's hostname patterns, else guessed from its names and open ports; the vendor
// it already carries (a source's or the OUI's) or the pattern's; and a node name. Pure: the signals are the
// result's own facts and the rules given, so the same result always gives the same suggestion.
import type { ScanResultRow } from "./present-result.ts";

export interface Inference {
  name: string;
  vendor: string | null;
  role: string | null;
  icon_slug: string | null;
  confidence: number;
  signals_used: string[];
}

/** Port signatures, strongest first; the first whose ports are all open wins. */
const PORT_ROLES: { role: string; ports: number[]; icon: string; weight: number }[] = [
  { role: "hypervisor", ports: [8006], icon: "proxmox", weight: 0.8 },
  { role: "hypervisor", ports: [902], icon: "vmware", weight: 0.7 },
  { role: "printer", ports: [9100], icon: "printer", weight: 0.8 },
  { role: "printer", ports: [631], icon: "printer", weight: 0.6 },
  { role: "nas", ports: [2049], icon: "nas", weight: 0.6 },
  { role: "nas", ports: [5000, 5001], icon: "synology", weight: 0.7 },
  { role: "nas", ports: [445, 139], icon: "nas", weight: 0.5 },
  { role: "camera", ports: [554], icon: "camera", weight: 0.7 },
  { role: "router", ports: [53, 80], icon: "router", weight: 0.6 },
  { role: "iot", ports: [1883], icon: "iot", weight: 0.6 },
  { role: "workstation", ports: [3389], icon: "windows", weight: 0.6 },
  { role: "workstation", ports: [5900], icon: "desktop", weight: 0.5 },
  { role: "switch", ports: [161], icon: "switch", weight: 0.4 },
  { role: "server", ports: [22], icon: "server", weight: 0.5 },
  { role: "server", ports: [443], icon: "server", weight: 0.4 },
  { role: "server", ports: [80], icon: "server", weight: 0.4 },
];

/** Name words that say what a node is, checked on the hostname and the SNMP sysName. */
const NAME_ROLES: [RegExp, string][] = [
  [/\b(pve|proxmox|esxi?|hyperv?)\d*\b/i, "hypervisor"],
  [/\b(nas|synology|truenas|qnap)\d*\b/i, "nas"],
  [/\b(sw|switch)\d*\b/i, "switch"],
  [/\b(rtr|router|gw|gateway|opnsense|pfsense)\d*\b/i, "router"],
  [/\b(ap|wap|unifi)\d*\b/i, "access_point"],
  [/\b(printer|prn)\d*\b/i, "printer"],
  [/\b(cam|camera|nvr)\d*\b/i, "camera"],
];

/** A knowledge-base hostname pattern (kb_hostnames): a case-insensitive glob, `*` any run, `?` one character. */
export interface HostnameRule {
  pattern: RegExp;
  vendor: string | null;
  device_type: string | null;
}

export function hostnameRule(row: { pattern: string; vendor: string | null; device_type: string | null }): HostnameRule {
  const body = row.pattern
    .trim()
    .split("")
    .map((ch) => (ch === "*" ? ".*" : ch === "?" ? "." : ch.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return { pattern: new RegExp(`^${body}$`, "i"), vendor: row.vendor, device_type: row.device_type };
}

/** The node name a result would get: its hostname's first label, the SNMP name, or one made from the address. */
export function suggestedName(r: Pick<ScanResultRow, "hostname" | "snmp_sys_name" | "ip_address">): string {
  const host = r.hostname?.split(".")[0]?.trim() || r.snmp_sys_name?.trim();
  return (host || `host-${r.ip_address.replace(/[.:]/g, "-")}`).slice(0, 200);
}

export function inferResult(r: ScanResultRow, rules: HostnameRule[] = []): Inference {
  const signals: string[] = [];
  let role: string | null = null;
  let icon: string | null = null;
  let confidence = 0.1;
  let vendor = r.vendor;
  const hostNames = [r.hostname, r.hostname?.split(".")[0], r.snmp_sys_name].filter((n): n is string => !!n);
  const rule = rules.find((k) => hostNames.some((n) => k.pattern.test(n)));
  if (rule) {
    signals.push("kb_hostname");
    vendor ??= rule.vendor;
    if (rule.device_type) {
      role = rule.device_type;
      icon = rule.device_type;
      confidence = 0.85;
    }
  }
  const names = [r.hostname, r.snmp_sys_name].filter((n): n is string => !!n).map((n) => n.replace(/[._-]/g, " "));
  for (const [pattern, named] of NAME_ROLES) {
    if (role === null && names.some((n) => pattern.test(n))) {
      role = named;
      icon = named;
      confidence = 0.7;
      signals.push("hostname");
      break;
    }
  }
  const open = new Set(r.open_ports.map((p) => p.port));
  const byPort = PORT_ROLES.find((s) => s.ports.every((p) => open.has(p)));
  if (byPort) {
    signals.push(`ports:${byPort.ports.join(",")}`);
    if (role === null || role === byPort.role) {
      confidence = role === byPort.role ? Math.min(0.95, confidence + 0.2) : byPort.weight;
      role = byPort.role;
      icon = byPort.icon;
    }
  }
  if (r.device_type && role === null) {
    role = r.device_type;
    confidence = r.device_confidence ?? 0.5;
    signals.push("device_type");
  }
  if (r.vendor) signals.push(r.sources.includes("nmap") || r.sources.includes("snmp") ? "vendor" : "oui");
  return { name: suggestedName(r), vendor, role, icon_slug: icon, confidence: Math.round(confidence * 100) / 100, signals_used: signals };
}
