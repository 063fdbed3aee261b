// The remote_probe scope `direct_private` (spec/catalogue.tsv, group agents): the private networks the agent is
// directly connected to (the interface addresses of its hello / capability.readiness), plus the grant's
// additional_cidrs and additional_hostnames, minus its excluded_cidrs. The control plane resolves no
// names: a host name is in scope only when the grant lists it.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8Bytes } from "../../auth/encoding.ts";
import { type Cidr, cidrContains, formatIp, parseCidr, parseIp } from "../../net/cidr.ts";

/** RFC 1918, shared address space (RFC 6598) and unique local IPv6: what "private" means here. */
const PRIVATE = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"].map((c) => parseCidr(c)!);

export interface ProbeScope {
  /** First 16 hex of SHA-256 over the scope: changes whenever the scope does. */
  version: string;
  networks: string[];
  excluded: string[];
  hostnames: string[];
}

const text = (c: Cidr) => `${formatIp({ version: c.version, value: c.network })}/${c.prefix}`;
const isPrivate = (c: Cidr) =>
  PRIVATE.some((p) => p.version === c.version && p.prefix <= c.prefix && cidrContains(p, { version: c.version, value: c.network }));

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === "string") : [];
}

/** The interface networks an agent reported: [{name, flags, addrs: ["192.168.1.20/24", ...]}]. */
function reportedNetworks(networks: readonly unknown[]): Cidr[] {
  return networks
    .flatMap((n) => strings((n as { addrs?: unknown } | null)?.addrs))
    .map((a) => parseCidr(a))
    .filter((c): c is Cidr => c !== undefined);
}

export function probeScope(networks: readonly unknown[], config: Record<string, unknown>): ProbeScope {
  const direct = reportedNetworks(networks).filter(isPrivate);
  const additional = strings(config.additional_cidrs)
    .map((c) => parseCidr(c))
    .filter((c): c is Cidr => c !== undefined);
  const excluded = strings(config.excluded_cidrs)
    .map((c) => parseCidr(c))
    .filter((c): c is Cidr => c !== undefined);
  const scope = {
    networks: [...new Set([...direct, ...additional].map(text))],
    excluded: [...new Set(excluded.map(text))],
    hostnames: [...new Set(strings(config.additional_hostnames).map((h) => h.toLowerCase()))],
  };
  return { version: bytesToHex(sha256(utf8Bytes(JSON.stringify(scope)))).slice(0, 16), ...scope };
}

export type ScopeVerdict = "in_scope" | "out_of_scope" | "unresolved_host";

export function hostInScope(scope: ProbeScope, host: string): ScopeVerdict {
  const ip = parseIp(host);
  if (!ip) return scope.hostnames.includes(host.toLowerCase().replace(/\.$/, "")) ? "in_scope" : "unresolved_host";
  const within = (list: string[]) => list.some((c) => cidrContains(parseCidr(c)!, ip));
  return within(scope.networks) && !within(scope.excluded) ? "in_scope" : "out_of_scope";
}
