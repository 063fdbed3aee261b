// The SSRF policy for every outbound request an operator configures (integrations, notification
// sinks): which destination addresses may be reached. Pure, so the API checks a URL when it is saved
// and the Node client checks the RESOLVED address of every connection (DNS rebinding cannot pass).
// Private ranges are normal in a homelab; loopback, link-local and cloud metadata endpoints are not.
import { CidrSet, type IpAddress, parseIp } from "../../net/cidr.ts";

export interface OutboundPolicy {
  allow_private: boolean;
  allow_loopback: boolean;
  allow_link_local: boolean;
}

export const DEFAULT_OUTBOUND_POLICY: OutboundPolicy = Object.freeze({
  allow_private: true,
  allow_loopback: false,
  allow_link_local: false,
});

// Cloud instance metadata: refused whatever the policy says (credentials live there).
const METADATA = new CidrSet(["169.254.169.254/32", "fd00:ec2::254/128", "100.100.100.200/32"]);
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog", "metadata"]);
// Never a unicast destination, whatever the policy: "this network" (0.0.0.0 reaches the local host
// on Linux), the unspecified address, multicast, reserved and broadcast.
const NEVER = new CidrSet(["0.0.0.0/8", "224.0.0.0/4", "240.0.0.0/4", "::/128", "ff00::/8"]);
const LOOPBACK = new CidrSet(["127.0.0.0/8", "::1/128"]);
const LINK_LOCAL = new CidrSet(["169.254.0.0/16", "fe80::/10"]);
const PRIVATE = new CidrSet(["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"]);
// IPv6 forms that carry an IPv4 address (NAT64, 6to4, IPv4-compatible): judged by the IPv4 inside.
const NAT64 = new CidrSet(["64:ff9b::/96"]);
const SIX_TO_FOUR = new CidrSet(["2002::/16"]);
const V4_COMPAT = new CidrSet(["::/96"]);

function embeddedIpv4(ip: IpAddress): IpAddress | undefined {
  if (ip.version !== 6) return undefined;
  if (NAT64.has(ip) || (V4_COMPAT.has(ip) && ip.value > 1n)) return { version: 4, value: ip.value & 0xffffffffn };
  if (SIX_TO_FOUR.has(ip)) return { version: 4, value: (ip.value >> 80n) & 0xffffffffn };
  return undefined;
}

function classify(ip: IpAddress, policy: OutboundPolicy): string | null {
  if (METADATA.has(ip)) return "cloud metadata addresses are never reachable";
  const inner = embeddedIpv4(ip);
  if (inner) return classify(inner, policy);
  if (NEVER.has(ip)) return "unspecified, multicast and reserved addresses are not reachable";
  if (LOOPBACK.has(ip)) return policy.allow_loopback ? null : "loopback addresses are refused by the outbound policy (allow_loopback)";
  if (LINK_LOCAL.has(ip)) return policy.allow_link_local ? null : "link-local addresses are refused by the outbound policy (allow_link_local)";
  if (PRIVATE.has(ip)) return policy.allow_private ? null : "private addresses are refused by the outbound policy (allow_private)";
  return null;
}

/** null when the policy allows connecting to `ip`, else the reason (operator-safe). */
export function addressAllowed(ip: string, policy: OutboundPolicy): string | null {
  const parsed = parseIp(ip.replace(/^\[(.*)\]$/, "$1"));
  if (!parsed) return `"${ip}" is not an IP address`;
  const reason = classify(parsed, policy);
  return reason === null ? null : `${ip}: ${reason}`;
}

export type OutboundUrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * Checks a URL an operator configured: scheme (http/https unless `schemes` says otherwise), no
 * userinfo (credentials belong in the sealed secret fields), and the host when it is an IP literal or
 * a name that always means loopback or metadata. A name is checked again at connect time, by address.
 */
export function checkOutboundUrl(raw: string, policy: OutboundPolicy, opts?: { schemes?: string[] }): OutboundUrlCheck {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, message: "Not a valid absolute URL." };
  }
  const schemes = opts?.schemes ?? ["http", "https"];
  const scheme = url.protocol.replace(/:$/, "");
  if (!schemes.includes(scheme)) return { ok: false, message: `The URL scheme must be ${schemes.join(" or ")}.` };
  if (url.username || url.password) return { ok: false, message: "The URL must not contain a user name or password." };
  // The WHATWG parser already canonicalised IPv4 forms such as 0x7f.1 or 2130706433 to dotted quads.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!host) return { ok: false, message: "The URL has no host." };
  const reason = checkOutboundHost(host, policy);
  return reason === null ? { ok: true, url } : { ok: false, message: `The URL's host is not allowed: ${reason}.` };
}

/**
 * A bare host (an SMTP server, a URL's host): null when allowed as far as can be told without resolving
 * it (IP literals classified; names that always mean loopback or metadata refused), else the reason.
 */
export function checkOutboundHost(raw: string, policy: OutboundPolicy): string | null {
  const host = raw.trim().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "").toLowerCase();
  if (!host) return "no host";
  if (parseIp(host)) return addressAllowed(host, policy);
  if (METADATA_HOSTS.has(host)) return `${host} is a cloud metadata endpoint, never reachable`;
  if ((host === "localhost" || host.endsWith(".localhost")) && !policy.allow_loopback) return `${host} is loopback, refused by the outbound policy (allow_loopback)`;
  return null;
}
