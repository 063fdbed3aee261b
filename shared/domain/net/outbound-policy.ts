// The SSRF policy for every outbound request an operator configures (integrations, notification
// sinks): which destination addresses may be reached. Pure, so the API checks a URL when it is saved
// and the Node client checks the RESOLVED address of every connection (DNS rebinding cannot pass).
// Private ranges are normal in a homelab; loopback is not, and link-local and cloud metadata endpoints
// are never reachable, whatever a policy says (docs/adr/0330-outbound-policy-everywhere.md).
import { CidrSet, type IpAddress, parseIp } from "../../net/cidr.ts";

export interface OutboundPolicy {
  allow_private: boolean;
  allow_loopback: boolean;
}

export const DEFAULT_OUTBOUND_POLICY: OutboundPolicy = Object.freeze({
  allow_private: true,
  allow_loopback: false,
});

/**
 * Monitors (the `monitor_policy` setting): probing the LAN and services on this host is what they are
 * for, so private and loopback are allowed by default; an administrator may narrow it.
 */
export const DEFAULT_MONITOR_POLICY: OutboundPolicy = Object.freeze({
  allow_private: true,
  allow_loopback: true,
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
  if (LINK_LOCAL.has(ip)) return "link-local addresses are never reachable";
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
 * A bare host as a connection would read it: the WHATWG host parser turns every IPv4 spelling the
 * system resolver also accepts (2852039166, 0xa9fea9fe, 0251.0376.0251.0376, 169.254.43518, a
 * trailing dot) into a dotted quad, and IPv6 into its canonical form; no brackets, no trailing dot.
 */
export function canonicalHost(raw: string): string {
  const bare = raw.trim().replace(/^\[(.*)\]$/, "$1");
  if (!bare) return "";
  let host = bare.toLowerCase();
  // A zone (fe80::1%eth0) is no part of a URL host; parseIp reads it.
  if (!bare.includes("%")) {
    try {
      host = new URL(`http://${bare.includes(":") ? `[${bare}]` : bare}/`).hostname.replace(/^\[(.*)\]$/, "$1");
    } catch {
      // Not a URL host (a space, say): judged as written; a connection would not resolve it either.
    }
  }
  return host.replace(/\.$/, "");
}

/**
 * A bare host (an SMTP server, a URL's host): null when allowed as far as can be told without resolving
 * it (IP literals classified; names that always mean loopback or metadata refused), else the reason.
 */
export function checkOutboundHost(raw: string, policy: OutboundPolicy): string | null {
  const host = canonicalHost(raw);
  if (!host) return "no host";
  if (parseIp(host)) return addressAllowed(host, policy);
  if (METADATA_HOSTS.has(host)) return `${host} is a cloud metadata endpoint, never reachable`;
  if ((host === "localhost" || host.endsWith(".localhost")) && !policy.allow_loopback)
    return `${host} is loopback, refused by the outbound policy (allow_loopback)`;
  return null;
}

/**
 * The host a monitor's `host` names: a URL's host (http monitors may be given one), a host:port's host,
 * or the text itself (a name, an address, a bare IPv6 address).
 */
export function hostOfTarget(raw: string): string {
  const text = raw.trim();
  if (text.includes("://")) {
    try {
      return new URL(text).hostname;
    } catch {
      return text;
    }
  }
  if (parseIp(text.replace(/^\[(.*)\]$/, "$1"))) return text;
  try {
    return new URL(`http://${text}`).hostname;
  } catch {
    return text;
  }
}
