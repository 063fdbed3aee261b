// The scan-type vocabulary (docs/architecture.md, API contracts, Discovery): the original's types, plus ours for what runs
// without nmap. Agent types run on an agent only, server types on the sidecar only.

export const SERVER_SCAN_TYPES = [
  "nmap",
  "arp",
  "snmp",
  "http",
  "docker",
  "opnsense",
  "deep_dive",
  "proxmox",
  "lldp",
  "icmp",
  "tcp",
  "dns",
  "banner",
] as const;
export const AGENT_SCAN_TYPES = ["agent_connect", "agent_icmp"] as const;
export type ScanType = (typeof SERVER_SCAN_TYPES)[number] | (typeof AGENT_SCAN_TYPES)[number];

/** What a scan runs when the request names no type: a sweep that needs no extra tool. */
export const DEFAULT_SCAN_TYPES: readonly ScanType[] = ["icmp", "tcp", "dns", "arp"];

/** The types this build runs. The others are known (kept for the original's clients) but refused with 422. */
export const BUILT_SCAN_TYPES: ReadonlySet<string> = new Set([
  "icmp",
  "tcp",
  "dns",
  "arp",
  "banner",
  "http",
  "nmap",
  "snmp",
  "docker",
  "lldp",
  "opnsense",
  "agent_connect",
  "agent_icmp",
]);

/** Types that need their own runner and job (not a sweep of addresses): they never mix with the others. */
export const SOLO_SCAN_TYPES: ReadonlySet<string> = new Set(["docker", "lldp", "opnsense"]);

/** Solo types that read a source instead of sweeping addresses: their jobs and profiles take no targets. */
export const UNTARGETED_SCAN_TYPES: ReadonlySet<string> = new Set(["docker", "opnsense"]);

const KNOWN: ReadonlySet<string> = new Set<string>([...SERVER_SCAN_TYPES, ...AGENT_SCAN_TYPES]);
const AGENT: ReadonlySet<string> = new Set<string>(AGENT_SCAN_TYPES);

export type ScanTypesResult = { ok: true; value: ScanType[] } | { ok: false; message: string };

/**
 * The reference's rules (core/discovery_scan_types.py): duplicates collapse in first-seen order, an
 * unknown type is named, agent types need an agent and server types refuse one. Ours on top: a type
 * this build does not run, and docker/lldp mixed with a sweep, are refused rather than silently skipped.
 */
export function normaliseScanTypes(list: readonly string[], agentId: number | null): ScanTypesResult {
  const seen: ScanType[] = [];
  for (const t of list) {
    if (!KNOWN.has(t)) return { ok: false, message: `Unknown scan type '${t}'. Known types: ${[...KNOWN].join(", ")}` };
    if (!seen.includes(t as ScanType)) seen.push(t as ScanType);
  }
  if (agentId !== null) {
    if (seen.length === 0) return { ok: false, message: "An agent scan needs at least one scan type (agent_connect, agent_icmp)" };
    const server = seen.find((t) => !AGENT.has(t));
    if (server)
      return { ok: false, message: `Scan type '${server}' runs on the server only; an agent scan takes ${AGENT_SCAN_TYPES.join(", ")}` };
  } else {
    const agent = seen.find((t) => AGENT.has(t));
    if (agent) return { ok: false, message: `Scan type '${agent}' runs on an agent: choose scan_agent_id` };
    if (seen.length === 0) return { ok: true, value: [...DEFAULT_SCAN_TYPES] };
  }
  const unbuilt = seen.find((t) => !BUILT_SCAN_TYPES.has(t));
  if (unbuilt) return { ok: false, message: `Scan type '${unbuilt}' is not available in this build` };
  const solo = seen.find((t) => SOLO_SCAN_TYPES.has(t));
  if (solo && seen.length > 1) return { ok: false, message: `Scan type '${solo}' runs alone: start it without other types` };
  return { ok: true, value: seen };
}
