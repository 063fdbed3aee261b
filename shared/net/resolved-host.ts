// The save-time half of judging a name by its address: when a URL or host an operator saves names a host,
// the addresses it resolves to now are checked against the policy, so a name that resolves to loopback or
// metadata (`vm` in /etc/hosts) is a 422 when saved, not only a refusal when used. Advisory by nature
// (DNS answers change, a name may resolve only from the sidecar's network): the connection's own lookup
// (net/outbound-http.ts policyLookup) stays the check that counts. Where the runtime cannot resolve (the
// edge), or the name does not resolve within the bound, the save goes through and connect decides.
import { addressAllowed, canonicalHost, checkOutboundHost, type OutboundPolicy } from "../domain/net/outbound-policy.ts";
import { parseIp } from "./cidr.ts";
import { withTimeout } from "../timeout.ts";

/** Every address a name resolves to, as a connection from this process would see it. */
export type HostResolver = (host: string) => Promise<string[]>;

/** Bounds the wait inside a request (the system resolver's own retries can take far longer). */
const RESOLVE_TIMEOUT_MS = 2000;

/**
 * null when `host` may be saved under `policy`: an allowed literal, a name with at least one allowed
 * address (a connection uses only those), or a name that cannot be resolved here. Else the reason,
 * naming the host only.
 */
export async function savedHostRefusal(resolve: HostResolver | undefined, host: string, policy: OutboundPolicy): Promise<string | null> {
  const literal = checkOutboundHost(host, policy);
  if (literal !== null) return literal;
  const name = canonicalHost(host);
  if (!resolve || !name || parseIp(name)) return null;
  let addresses: string[];
  try {
    addresses = await withTimeout(resolve(name), RESOLVE_TIMEOUT_MS);
  } catch {
    return null;
  }
  if (addresses.length === 0 || addresses.some((a) => addressAllowed(a, policy) === null)) return null;
  return `${name} resolves to a refused address (${addressAllowed(addresses[0]!, policy)})`;
}

/** The same for a URL's host (the URL itself already passed checkOutboundUrl). */
export function savedUrlRefusal(resolve: HostResolver | undefined, url: string, policy: OutboundPolicy): Promise<string | null> {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return Promise.resolve(null);
  }
  return savedHostRefusal(resolve, host, policy);
}
