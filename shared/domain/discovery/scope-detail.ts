// Whether every target of a discovery scan lies inside an agent's scope: one pure check, without the
// database, so the server (services/discovery/agents/evaluate.ts) and the agent itself (agent/discovery/
// scope.ts) run the same code.
import { intToIp, type IpRange, parseTarget } from "./targets.ts";

function rangeOfCidr(cidr: string): IpRange | null {
  const r = parseTarget(cidr, false);
  return typeof r === "string" ? null : r;
}

/** null when every target lies inside a scope network and outside every excluded one, else the detail. */
export function scopeDetail(targets: string[], scope: string[], excluded: string[]): string | null {
  const inside = scope.map(rangeOfCidr).filter((r): r is IpRange => r !== null);
  const outside = excluded.map(rangeOfCidr).filter((r): r is IpRange => r !== null);
  for (const target of targets) {
    const r = parseTarget(target, false);
    if (typeof r === "string") return `invalid_target:${target}`;
    if (!inside.some((n) => n.first <= r.first && r.last <= n.last))
      return inside.some((n) => r.first <= n.first && n.last <= r.last) ? `prefix_too_wide:${target}` : `not_directly_connected:${target}`;
    const hit = outside.find((n) => n.first <= r.last && r.first <= n.last);
    if (hit) return `excluded_cidr:${intToIp(hit.first)}-${intToIp(hit.last)}`;
  }
  return null;
}
