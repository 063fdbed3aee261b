// The address space of a prefix and what its children take of it, IPv4 and IPv6 alike (BigInt): the
// union of child prefixes, the next free aligned blocks of a given length, and utilisation. Parsing is
// cidr-math.ts's; nothing here touches the database.
import type { Cidr } from "./cidr-math.ts";

const BITS = { 4: 32, 6: 128 } as const;

export interface Range {
  first: bigint;
  last: bigint;
}

export const bitsOf = (c: Cidr): number => BITS[c.version];

export function sizeOf(c: Cidr): bigint {
  return 1n << BigInt(bitsOf(c) - c.prefix);
}

export function rangeOf(c: Cidr): Range {
  return { first: c.network, last: c.network + sizeOf(c) - 1n };
}

// Math.max and Math.min take numbers only.
const bigMax = (x: bigint, y: bigint) => (x > y ? x : y);
const bigMin = (x: bigint, y: bigint) => (x < y ? x : y);

/** The ranges of `parts` clipped to `within`, sorted and merged (overlapping or adjacent joined). */
export function mergedRanges(within: Cidr, parts: readonly Cidr[]): Range[] {
  const outer = rangeOf(within);
  const clipped = parts
    .filter((p) => p.version === within.version)
    .map(rangeOf)
    .map((r) => ({ first: bigMax(r.first, outer.first), last: bigMin(r.last, outer.last) }))
    .filter((r) => r.first <= r.last)
    .sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const out: Range[] = [];
  for (const r of clipped) {
    const top = out.at(-1);
    if (top && r.first <= top.last + 1n) {
      if (r.last > top.last) top.last = r.last;
    } else out.push({ ...r });
  }
  return out;
}

/** How many addresses of `within` the union of `parts` covers. */
export function coveredSize(within: Cidr, parts: readonly Cidr[]): bigint {
  return mergedRanges(within, parts).reduce((n, r) => n + (r.last - r.first + 1n), 0n);
}

/**
 * The first `max` blocks of prefix length `length` inside `parent` that overlap none of `taken`, lowest
 * first. The caller checks that `length` is longer than the parent's and at most the family's bits.
 */
export function freeBlocks(parent: Cidr, taken: readonly Cidr[], length: number, max: number): Cidr[] {
  const size = 1n << BigInt(bitsOf(parent) - length);
  const outer = rangeOf(parent);
  const out: Cidr[] = [];
  let cursor = outer.first;
  const gaps: Range[] = [];
  for (const r of mergedRanges(parent, taken)) {
    if (r.first > cursor) gaps.push({ first: cursor, last: r.first - 1n });
    cursor = r.last + 1n;
  }
  if (cursor <= outer.last) gaps.push({ first: cursor, last: outer.last });
  for (const gap of gaps) {
    // Align up to the block size; every step either yields a block or leaves the gap, so this ends.
    let at = ((gap.first + size - 1n) / size) * size;
    while (out.length < max && at + size - 1n <= gap.last) {
      out.push({ version: parent.version, network: at, prefix: length });
      at += size;
    }
    if (out.length >= max) break;
  }
  return out;
}

export interface Utilisation {
  /** Decimal strings: an IPv6 prefix holds more addresses than a JSON number counts exactly. */
  used: string;
  total: string;
  percent: number;
}

/**
 * A container is used by its child prefixes; any other prefix by its child prefixes plus the addresses
 * in use outside them; mark_utilized counts it full.
 */
export function utilisation(
  prefix: Cidr,
  opts: { container: boolean; markUtilized: boolean; children: readonly Cidr[]; addresses: Iterable<bigint> },
): Utilisation {
  const total = sizeOf(prefix);
  let used: bigint;
  if (opts.markUtilized) used = total;
  else {
    const ranges = mergedRanges(prefix, opts.children);
    used = ranges.reduce((n, r) => n + (r.last - r.first + 1n), 0n);
    if (!opts.container) {
      const outer = rangeOf(prefix);
      for (const a of new Set(opts.addresses))
        if (a >= outer.first && a <= outer.last && !ranges.some((r) => a >= r.first && a <= r.last)) used++;
    }
  }
  // Two decimals, computed in BigInt so a /32 of IPv6 rounds the same as a /24 of IPv4.
  const percent = Number((used * 10000n) / total) / 100;
  return { used: String(used), total: String(total), percent };
}
