// The client identity rate limits are keyed by (spec 8.1): the socket peer, unless that peer is one of
// the trusted proxies; then the X-Forwarded-For chain is walked from the right (each proxy appends the
// address it saw), skipping trusted hops, and the first untrusted address is the client. Whatever a
// client writes into the header itself sits to the left of that point and is never read.
import { type CidrSet, formatIp, type IpAddress, parseIp } from "./cidr.ts";

/** The identity of a request whose peer address is not known (app.request() in tests, no socket). */
export const UNKNOWN_CLIENT = "unknown";

/** "1.2.3.4:5678" and "[2001:db8::1]:443" (some proxies append the port) -> the bare address. */
export function stripPort(entry: string): string {
  const s = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(s);
  return v4WithPort ? v4WithPort[1]! : s;
}

/**
 * The bucket name of an address. IPv6 clients are keyed by their /64: one host usually holds a whole
 * /64, and keying single addresses would let it rotate through them to escape the limit.
 */
export function identityOf(ip: IpAddress): string {
  if (ip.version === 4) return formatIp(ip);
  const net = ip.value & (((1n << 64n) - 1n) << 64n);
  return `${formatIp({ version: 6, value: net })}/64`;
}

export interface ClientIpInput {
  /** The socket peer (or CF-Connecting-IP on workerd); undefined when unknown. */
  peer: string | undefined;
  /** The X-Forwarded-For header, all of its values joined by commas. */
  forwardedFor: string | undefined | null;
  trustedProxies: CidrSet;
}

/** The client address as text (canonical form), or undefined when the peer is unknown or not an address. */
export function clientAddress({ peer, forwardedFor, trustedProxies }: ClientIpInput): IpAddress | undefined {
  const peerIp = peer === undefined ? undefined : parseIp(stripPort(peer));
  if (!peerIp) return undefined;
  if (!trustedProxies.has(peerIp) || !forwardedFor) return peerIp;
  const chain = forwardedFor.split(",").map(stripPort).filter(Boolean);
  // `nearest` is the closest hop we trust to have told the truth about the one before it.
  let nearest = peerIp;
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = parseIp(chain[i]!);
    // A hop that is not an address (e.g. "unknown") says nothing: the proxy that wrote it is the client
    // as far as we can tell.
    if (!hop) return nearest;
    if (!trustedProxies.has(hop)) return hop;
    nearest = hop;
  }
  // Every hop is a trusted proxy: the request started inside; the furthest one is the client.
  return nearest;
}

/** The rate-limit identity of a request: see clientAddress; "unknown" without a usable peer. */
export function clientIdentity(input: ClientIpInput): string {
  const ip = clientAddress(input);
  return ip ? identityOf(ip) : UNKNOWN_CLIENT;
}

/** The rate-limit identity of an address already worked out (text form), "unknown" passing through. */
export function identityOfText(address: string): string {
  const ip = parseIp(address);
  return ip ? identityOf(ip) : UNKNOWN_CLIENT;
}
