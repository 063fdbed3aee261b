// IP addresses and CIDR ranges, IPv4 and IPv6, parsed into integers so matching is exact. An
// IPv4-mapped IPv6 address (::ffff:10.0.0.1) is the IPv4 address it carries, in addresses and ranges
// alike, because a dual-stack socket reports IPv4 peers that way.

export interface IpAddress {
  version: 4 | 6;
  value: bigint;
}

export interface Cidr {
  version: 4 | 6;
  /** The network, with the host bits cleared. */
  network: bigint;
  prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

function parseIpv4(s: string): bigint | undefined {
  const parts = s.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || (p.length > 1 && p.startsWith("0"))) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseIpv6(s: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(s)) return undefined;
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const groups = (h: string | undefined): string[] | undefined => (h === undefined || h === "" ? [] : h.split(":"));
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  if (!head || !tail) return undefined;
  const words: number[] = [];
  const push = (list: string[], last: boolean): boolean => {
    for (let i = 0; i < list.length; i++) {
      const g = list[i]!;
      if (last && i === list.length - 1 && g.includes(".")) {
        const v4 = parseIpv4(g);
        if (v4 === undefined) return false;
        words.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return false;
        words.push(parseInt(g, 16));
      }
    }
    return true;
  };
  const compressed = halves.length === 2;
  if (!push(head, !compressed)) return undefined;
  const headLen = words.length;
  if (!push(tail, true)) return undefined;
  const missing = 8 - words.length;
  if (compressed ? missing < 1 : missing !== 0) return undefined;
  if (compressed) words.splice(headLen, 0, ...new Array<number>(missing).fill(0));
  return words.reduce((acc, w) => (acc << 16n) | BigInt(w), 0n);
}

/** Parses an address; an IPv6 zone (fe80::1%eth0) is dropped. undefined when it is not an address. */
export function parseIp(input: string): IpAddress | undefined {
  const s = input.trim();
  if (s.includes(":")) {
    const value = parseIpv6(s.replace(/%[^%]*$/, ""));
    if (value === undefined) return undefined;
    if (value >> 32n === 0xffffn) return { version: 4, value: value & 0xffffffffn };
    return { version: 6, value };
  }
  const value = parseIpv4(s);
  return value === undefined ? undefined : { version: 4, value };
}

const mask = (version: 4 | 6, prefix: number): bigint => {
  const bits = BITS[version];
  return ((1n << BigInt(bits)) - 1n) ^ ((1n << BigInt(bits - prefix)) - 1n);
};

/** Parses "10.0.0.0/8", "2001:db8::/32", "::ffff:10.0.0.0/104" or a single address (a /32 or /128). */
export function parseCidr(input: string): Cidr | undefined {
  const [addr, len, extra] = input.trim().split("/");
  if (addr === undefined || extra !== undefined) return undefined;
  if (len !== undefined && !/^\d{1,3}$/.test(len)) return undefined;
  const ip = parseIp(addr);
  if (!ip) return undefined;
  const mapped = ip.version === 4 && addr.includes(":");
  let prefix = len === undefined ? (mapped ? 128 : BITS[ip.version]) : Number(len);
  if (mapped) {
    // An IPv4-mapped range is written over 128 bits; it covers IPv4 addresses only from /96 on.
    if (prefix < 96 || prefix > 128) return undefined;
    prefix -= 96;
  }
  if (prefix > BITS[ip.version]) return undefined;
  return { version: ip.version, network: ip.value & mask(ip.version, prefix), prefix };
}

export function isIpOrCidr(input: string): boolean {
  return parseCidr(input) !== undefined;
}

export function cidrContains(range: Cidr, ip: IpAddress): boolean {
  return range.version === ip.version && (ip.value & mask(ip.version, range.prefix)) === range.network;
}

/** Canonical text: dotted IPv4, or RFC 5952 IPv6 (lower case, longest zero run compressed). */
export function formatIp(ip: IpAddress): string {
  if (ip.version === 4) return [24n, 16n, 8n, 0n].map((s) => String((ip.value >> s) & 0xffn)).join(".");
  const words = Array.from({ length: 8 }, (_, i) => Number((ip.value >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > best.len) best = { at: i, len: j - i };
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(":");
  if (best.len < 2) return hex(words);
  return `${hex(words.slice(0, best.at))}::${hex(words.slice(best.at + best.len))}`;
}

/** A parsed TRUSTED_PROXIES list; entries that do not parse are reported by the caller, not matched. */
export class CidrSet {
  readonly #ranges: Cidr[];

  constructor(entries: readonly string[]) {
    this.#ranges = entries.map((e) => parseCidr(e)).filter((c): c is Cidr => c !== undefined);
  }

  get size(): number {
    return this.#ranges.length;
  }

  has(ip: IpAddress): boolean {
    return this.#ranges.some((r) => cidrContains(r, ip));
  }
}
