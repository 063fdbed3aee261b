// Address arithmetic for networks and IPAM, IPv4 and IPv6 alike (BigInt): the canonical form of a
// network, its usable host range, the lowest free host, and LIKE patterns that narrow free-text
// address columns in SQL before the exact checks here. Parsing is shared/net/cidr.ts's.
import { type Cidr, cidrContains, formatIp, type IpAddress, parseIp } from "../net/cidr.ts";

export type { Cidr, IpAddress };

const BITS = { 4: 32, 6: 128 } as const;

export type Parsed<T> = { ok: true; value: T; text: string } | { ok: false; message: string };

function netmask(version: 4 | 6, prefix: number): bigint {
  const bits = BITS[version];
  return ((1n << BigInt(bits)) - 1n) ^ ((1n << BigInt(bits - prefix)) - 1n);
}

/** A single address as stored: no zone id (it means nothing off the host); IPv4-mapped IPv6 is its IPv4. */
export function parseAddress(input: string): Parsed<IpAddress> {
  const s = input.trim();
  const ip = s.includes("%") ? undefined : parseIp(s);
  if (!ip) return { ok: false, message: `"${input}" is not an IPv4 or IPv6 address.` };
  return { ok: true, value: ip, text: formatIp(ip) };
}

export function formatCidr(c: Cidr): string {
  return `${formatIp({ version: c.version, value: c.network })}/${c.prefix}`;
}

/** "address/prefix" with the host bits zero; otherwise the message names the canonical network. */
export function parseNetwork(input: string): Parsed<Cidr> {
  const m = /^([^/\s]+)\/(\d{1,3})$/.exec(input.trim());
  if (!m) return { ok: false, message: `"${input}" is not a network in CIDR notation (address/prefix, e.g. 10.0.0.0/24).` };
  const addr = parseAddress(m[1]!);
  if (!addr.ok) return addr;
  const ip = addr.value;
  // A mapped address parses as IPv4, but its prefix would count 128 bits: make the writer say which.
  if (ip.version === 4 && m[1]!.includes(":"))
    return { ok: false, message: "Write an IPv4 network in IPv4 form (e.g. 10.0.0.0/24), not IPv4-mapped IPv6." };
  const prefix = Number(m[2]);
  if (prefix > BITS[ip.version]) return { ok: false, message: `An IPv${ip.version} prefix is at most /${BITS[ip.version]}.` };
  const cidr: Cidr = { version: ip.version, network: ip.value & netmask(ip.version, prefix), prefix };
  const text = formatCidr(cidr);
  if (cidr.network !== ip.value) return { ok: false, message: `Host bits are set; the network is ${text}.` };
  return { ok: true, value: cidr, text };
}

/** An address as other resources store it (free text, sometimes "10.0.0.5/24"): the address part. */
export function parseHost(text: string | null | undefined): IpAddress | undefined {
  if (!text) return undefined;
  const r = parseAddress(text.split("/")[0]!);
  return r.ok ? r.value : undefined;
}

export function contains(c: Cidr, ip: IpAddress): boolean {
  return cidrContains(c, ip);
}

/**
 * The addresses hosts may take. IPv4 skips the network and broadcast addresses except on /31 and /32
 * (RFC 3021 point-to-point links); IPv6 skips the all-zero host, the subnet-router anycast (RFC 4291),
 * except on /127 and /128.
 */
export function hostRange(c: Cidr): { first: bigint; last: bigint } {
  const size = 1n << BigInt(BITS[c.version] - c.prefix);
  const top = c.network + size - 1n;
  if (c.prefix >= BITS[c.version] - 1) return { first: c.network, last: top };
  return { first: c.network + 1n, last: c.version === 4 ? top - 1n : top };
}

/** The lowest host address of `c` not in `used`; undefined when every host address is taken. */
export function lowestFree(c: Cidr, used: Iterable<bigint>): bigint | undefined {
  return freeHosts(c, used, 1)[0];
}

/**
 * The first `max` addresses of `c` not in `used`, lowest first: host addresses (hostRange), or every
 * address of a pool, whose network and broadcast addresses are usable too.
 */
export function freeHosts(c: Cidr, used: Iterable<bigint>, max: number, { pool = false } = {}): bigint[] {
  const { first, last } = pool ? { first: c.network, last: c.network + (1n << BigInt(BITS[c.version] - c.prefix)) - 1n } : hostRange(c);
  const taken = [...new Set(used)].filter((u) => u >= first && u <= last).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const out: bigint[] = [];
  let candidate = first;
  // Each turn either passes a taken address or yields one: at most taken.length + max turns.
  for (const u of [...taken, last + 1n]) {
    while (out.length < max && candidate < u && candidate <= last) out.push(candidate++);
    if (out.length >= max) break;
    candidate = u + 1n;
  }
  return out;
}

/**
 * Lower-case LIKE patterns every textual spelling of an address inside `c` matches (a superset: the
 * exact test follows in code). IPv4: the whole leading octets, plus the IPv4-mapped IPv6 spelling.
 */
export function likePatterns(c: Cidr): string[] {
  if (c.version === 6) return ["%:%"];
  const octets = Math.min(Math.floor(c.prefix / 8), 3);
  const lead = formatIp({ version: 4, value: c.network }).split(".").slice(0, octets);
  return [octets === 0 ? "%.%" : `${lead.join(".")}.%`, "::ffff:%"];
}

/** The single-address network of `ip` (a /32 or /128). */
export function hostCidr(ip: IpAddress): Cidr {
  return { version: ip.version, network: ip.value, prefix: BITS[ip.version] };
}

export function formatAddress(version: 4 | 6, value: bigint): string {
  return formatIp({ version, value });
}
