// TCP port lists a scan probes: explicit ports or a named preset, never more than MAX_PORTS_PER_JOB.

export const MAX_PORTS_PER_JOB = 1024;

const COMMON = [21, 22, 23, 25, 53, 80, 110, 139, 143, 443, 445, 3389, 5900, 8006, 8080, 8443, 9100];

// The 100 TCP ports nmap's services frequency table ranks highest (nmap --top-ports 100).
const TOP100 = [
  7, 9, 13, 21, 22, 23, 25, 26, 37, 53, 79, 80, 81, 88, 106, 110, 111, 113, 119, 135, 139, 143, 144, 179, 199, 389, 427, 443, 444, 445, 465,
  513, 514, 515, 543, 544, 548, 554, 587, 631, 646, 873, 990, 993, 995, 1025, 1026, 1027, 1028, 1029, 1110, 1433, 1720, 1723, 1755, 1900,
  2000, 2001, 2049, 2121, 2717, 3000, 3128, 3306, 3389, 3986, 4899, 5000, 5009, 5051, 5060, 5101, 5190, 5357, 5432, 5631, 5666, 5800, 5900,
  6000, 6001, 6646, 7070, 8000, 8008, 8009, 8080, 8081, 8443, 8888, 9100, 9999, 10000, 32768, 49152, 49153, 49154, 49155, 49156, 49157,
];

const WEB = [80, 443, 3000, 5000, 8000, 8006, 8080, 8081, 8443, 8888, 9000, 9090, 9443];

// What a homelab's infrastructure answers on: hypervisors, NAS, DNS, databases, exporters, management.
const INFRASTRUCTURE = [
  22, 53, 80, 161, 443, 445, 623, 2049, 2375, 2376, 3306, 5432, 6379, 8006, 8007, 8080, 8443, 9090, 9100, 9443, 10050, 10051, 51820,
];

export const PORT_PRESETS: Readonly<Record<"common" | "top100" | "web" | "infrastructure", readonly number[]>> = {
  common: COMMON,
  top100: TOP100,
  web: WEB,
  infrastructure: INFRASTRUCTURE,
};
export type PortPreset = keyof typeof PORT_PRESETS;
export const DEFAULT_PORT_PRESET: PortPreset = "common";

export type PortsResult = { ok: true; value: number[] } | { ok: false; field: string; message: string };

/** Explicit ports win over a preset; none of either means the default preset. Sorted and unique. */
export function resolvePorts(input: { tcp_ports?: readonly number[] | null; ports_preset?: string | null }): PortsResult {
  if (input.ports_preset != null && !Object.hasOwn(PORT_PRESETS, input.ports_preset)) {
    return {
      ok: false,
      field: "ports_preset",
      message: `Unknown ports preset '${input.ports_preset}'. Known presets: ${Object.keys(PORT_PRESETS).join(", ")}`,
    };
  }
  const explicit = input.tcp_ports ?? [];
  for (const [i, p] of explicit.entries()) {
    if (!Number.isInteger(p) || p < 1 || p > 65535)
      return { ok: false, field: `tcp_ports[${i}]`, message: `${String(p)} is not a TCP port (1-65535)` };
  }
  const chosen =
    explicit.length > 0 ? explicit : PORT_PRESETS[(input.ports_preset as PortPreset | null | undefined) ?? DEFAULT_PORT_PRESET];
  const ports = [...new Set(chosen)].sort((a, b) => a - b);
  if (ports.length > MAX_PORTS_PER_JOB)
    return { ok: false, field: "tcp_ports", message: `${ports.length} ports given; at most ${MAX_PORTS_PER_JOB} per job` };
  return { ok: true, value: ports };
}
