// Which addresses an enrichment (POST /discovery/jobs/{id}/enrich) may scan: the reference scanned the
// private addresses of an OPNsense job. Ours are the addresses inside BOTH the built-in private ranges
// (RFC 1918, CGNAT and loopback: DEFAULT_ALLOWED_TARGETS) and the configured allowed set: widening the
// allowed set to public space never makes a firewall's public neighbours scannable through enrich, and
// narrowing it is obeyed. Loopback counts because the default allowed set already holds it (a firewall
// never reports 127.0.0.0/8; tests do, on their own addresses).
import { DEFAULT_ALLOWED_TARGETS, parseTargets } from "./targets.ts";

const inside = (ip: string, allowed: readonly string[]) => parseTargets({ targets: [ip], allowed, cap: 1 }).ok;

export function privateAddresses(ips: readonly string[], allowed: readonly string[]): string[] {
  return ips.filter((ip) => inside(ip, DEFAULT_ALLOWED_TARGETS) && inside(ip, allowed));
}
