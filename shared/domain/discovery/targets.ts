// What a scan may reach (issue 13, "Bad input"): targets as CIDRs, ranges or single IPv4 addresses,
// minus exclusions, inside an allowed set, never more than a hard cap of addresses. Parsing is pure so
// the functions (request validation), the sidecar's engine and the agents' eligibility share one rule.

import { formatAddress, hostRange, parseAddress, parseNetwork } from "../cidr-math.ts";

/** The most addresses one job may scan; a /20 (4094 hosts) fits, a /19 does not. */
export const MAX_SCAN_ADDRESSES = 4096;

/** Private, shared (CGNAT) and loopback ranges: where a homelab's hosts live. Public space needs the env setting. */
export const DEFAULT_ALLOWED_TARGETS: readonly string[] = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "127.0.0.0/8"];

/** An inclusive range of IPv4 addresses as unsigned integers. */
export interface IpRange {
  first: number;
  last: number;
}

export interface TargetSet {
  /** The targets as given (trimmed), for display and for agents. */
  targets: string[];
  exclude: string[];
  /** How many addresses addresses() yields. */
  count: number;
  /** Every address to scan, in order, without exclusions; generated lazily. */
  addresses(): Iterable<string>;
  contains(ip: string): boolean;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

/** An IPv4 address as an unsigned integer (null for anything else, IPv6 included: scans are IPv4). */
export function ipToInt(ip: string): number | null {
  const parsed = parseAddress(ip);
  return parsed.ok && parsed.value.version === 4 && !ip.includes(":") ? Number(parsed.value.value) : null;
}

export function intToIp(n: number): string {
  return formatAddress(4, BigInt(n));
}

/**
 * One target as an address range: `a.b.c.d/nn` (network and broadcast skipped as cidr-math's
 * hostRange does, as a sweep of a subnet never wants them), `a.b.c.d-e.f.g.h`, `a.b.c.d-h` (last octet) or `a.b.c.d`.
 * `hostsOnly` false keeps the whole block (used for the allowed set and exclusions).
 */
export function parseTarget(raw: string, hostsOnly = true): IpRange | string {
  const text = raw.trim();
  const slash = text.indexOf("/");
  if (slash >= 0) {
    const net = parseNetwork(text);
    if (!net.ok) return net.message;
    if (net.value.version !== 4) return `'${text}' is an IPv6 network; scans take IPv4 targets`;
    const range = hostsOnly
      ? hostRange(net.value)
      : { first: net.value.network, last: net.value.network + (1n << BigInt(32 - net.value.prefix)) - 1n };
    return { first: Number(range.first), last: Number(range.last) };
  }
  const dash = text.indexOf("-");
  if (dash >= 0) {
    const from = ipToInt(text.slice(0, dash));
    const toText = text.slice(dash + 1);
    const to =
      /^\d{1,3}$/.test(toText) && from !== null ? (Number(toText) <= 255 ? from - (from % 256) + Number(toText) : null) : ipToInt(toText);
    if (from === null || to === null) return `'${text}' is not a valid address range`;
    if (to < from) return `'${text}' ends before it starts`;
    return { first: from, last: to };
  }
  const ip = ipToInt(text);
  return ip === null ? `'${text}' is not an IPv4 address, range or CIDR` : { first: ip, last: ip };
}

function parseList(list: readonly string[], field: string, hostsOnly: boolean): ParseResult<IpRange[]> {
  const out: IpRange[] = [];
  for (const [i, raw] of list.entries()) {
    const r = typeof raw === "string" ? parseTarget(raw, hostsOnly) : "must be a string";
    if (typeof r === "string") return { ok: false, field: `${field}[${i}]`, message: r };
    out.push(r);
  }
  return { ok: true, value: out };
}

/** Sorted, overlapping and adjacent ranges joined: counting and iterating never see an address twice. */
function merge(ranges: IpRange[]): IpRange[] {
  const sorted = [...ranges].sort((a, b) => a.first - b.first);
  const out: IpRange[] = [];
  for (const r of sorted) {
    const prev = out[out.length - 1];
    if (prev && r.first <= prev.last + 1) prev.last = Math.max(prev.last, r.last);
    else out.push({ ...r });
  }
  return out;
}

function subtract(ranges: IpRange[], cut: IpRange[]): IpRange[] {
  let current = ranges;
  for (const c of cut) {
    const next: IpRange[] = [];
    for (const r of current) {
      if (c.last < r.first || c.first > r.last) next.push(r);
      else {
        if (c.first > r.first) next.push({ first: r.first, last: c.first - 1 });
        if (c.last < r.last) next.push({ first: c.last + 1, last: r.last });
      }
    }
    current = next;
  }
  return current;
}

function within(ranges: IpRange[], r: IpRange): boolean {
  return ranges.some((a) => r.first >= a.first && r.last <= a.last);
}

export function allowedTargetsFromEnv(env: Record<string, string | undefined>): string[] {
  const raw = env.SVC_DISCOVERY_ALLOWED_TARGETS?.trim();
  return raw
    ? raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [...DEFAULT_ALLOWED_TARGETS];
}

/** A TargetSet over already-validated ranges (the engine rebuilds one from a job row). */
export function targetSetOf(targets: string[], exclude: string[], ranges: IpRange[]): TargetSet {
  const count = ranges.reduce((n, r) => n + (r.last - r.first + 1), 0);
  return {
    targets,
    exclude,
    count,
    *addresses() {
      for (const r of ranges) for (let n = r.first; n <= r.last; n++) yield intToIp(n);
    },
    contains(ip: string) {
      const n = ipToInt(ip);
      return n !== null && ranges.some((r) => n >= r.first && n <= r.last);
    },
  };
}

/**
 * Validates targets and exclusions: every target parses, lies inside the allowed set, and the total
 * after exclusions is between 1 and `cap`. Errors name the field (`targets[2]`) for a 422.
 */
export function parseTargets(input: {
  targets: readonly string[];
  exclude?: readonly string[];
  allowed?: readonly string[];
  cap?: number;
  field?: string;
}): ParseResult<TargetSet> {
  const field = input.field ?? "targets";
  const cap = input.cap ?? MAX_SCAN_ADDRESSES;
  if (input.targets.length === 0) return { ok: false, field, message: "at least one target (CIDR, range or address) is required" };
  const parsed = parseList(input.targets, field, true);
  if (!parsed.ok) return parsed;
  const excluded = parseList(input.exclude ?? [], "exclude", false);
  if (!excluded.ok) return excluded;
  const allowed = parseList(input.allowed ?? DEFAULT_ALLOWED_TARGETS, "allowed", false);
  if (!allowed.ok) return { ok: false, field, message: `the allowed target setting is invalid: ${allowed.message}` };
  for (const [i, r] of parsed.value.entries()) {
    if (!within(merge(allowed.value), r)) {
      return {
        ok: false,
        field: `${field}[${i}]`,
        message: `'${input.targets[i]}' is outside the allowed targets (${(input.allowed ?? DEFAULT_ALLOWED_TARGETS).join(", ")})`,
      };
    }
  }
  const ranges = subtract(merge(parsed.value), merge(excluded.value));
  const set = targetSetOf(
    input.targets.map((t) => t.trim()),
    (input.exclude ?? []).map((t) => t.trim()),
    ranges,
  );
  if (set.count === 0) return { ok: false, field, message: "the exclusions leave no address to scan" };
  if (set.count > cap)
    return { ok: false, field, message: `the targets hold ${set.count} addresses; at most ${cap} may be scanned in one job` };
  return { ok: true, value: set };
}
