// Version comparison, conservative on purpose: only the dotted numeric scheme (`1`, `2.4.57`, `7.13.2`) is
// ordered; anything with letters or separators other than dots (`1.2.3a`, `2.0-rc1`, `9.3p1`, dates with
// dashes) is another scheme (version_scheme null). An asset's version of another scheme is never ordered
// (unknown, reason version_unsupported); a feed bound of another scheme is ordered against a dotted asset
// version where that is certain (compareLoose): 3.0.5 is past 1.0.2zd whatever "zd" means.
// Missing trailing components are zeros (`1.2` == `1.2.0`), as NVD's ranges read them.

export type VersionScheme = "dotted_numeric";

const DOTTED = /^\d{1,9}(\.\d{1,9})*$/;

export function versionScheme(version: string | null | undefined): VersionScheme | null {
  return version != null && DOTTED.test(version.trim()) ? "dotted_numeric" : null;
}

function parts(v: string): number[] {
  return v.trim().split(".").map(Number);
}

/** -1, 0 or 1 for two dotted numeric versions; null when either is of another scheme. */
export function compareVersions(a: string, b: string): -1 | 0 | 1 | null {
  if (versionScheme(a) === null || versionScheme(b) === null) return null;
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

const PREFIXED = /^(\d{1,9}(?:\.\d{1,9})*)([^\d.].*)$/;

/** The dotted numeric prefix and the rest of a version of another scheme ("1.0.2zd" -> "1.0.2", "zd"). */
export function numericPrefix(version: string): string | null {
  return PREFIXED.exec(version.trim())?.[1] ?? null;
}

/** The next sibling of a dotted numeric version: its last component plus one (1.0.2 -> 1.0.3). */
function nextOf(prefix: string): string {
  const p = parts(prefix);
  p[p.length - 1]! += 1;
  return p.join(".");
}

/**
 * Orders two versions where that is certain. A version of another scheme is a dotted numeric prefix P
 * with a suffix (a letter release 1.0.2zd, a patch 9.3p2, a pre-release 2.0-rc1, a build 7.1-42661):
 * whatever the suffix means, it lies between just below P and the next sibling of P (1.0.3), so it is
 * ordered against anything outside that window and unknown (null) inside it. Without a numeric prefix, null.
 */
export function compareLoose(a: string, b: string): -1 | 0 | 1 | null {
  const strict = compareVersions(a, b);
  if (strict !== null) return strict;
  const pa = versionScheme(a) ? null : numericPrefix(a);
  const pb = versionScheme(b) ? null : numericPrefix(b);
  if ((pa === null && versionScheme(a) === null) || (pb === null && versionScheme(b) === null)) return null;
  if (pa !== null && pb !== null) {
    if (a.trim().toLowerCase() === b.trim().toLowerCase()) return 0;
    if (compareVersions(nextOf(pa), pb)! <= 0) return -1;
    if (compareVersions(nextOf(pb), pa)! <= 0) return 1;
    return null;
  }
  // One side is a plain version V, the other a window around P.
  const flip = pa !== null;
  const v = flip ? b : a;
  const p = (flip ? pa : pb)!;
  let c: -1 | 1 | null = null;
  if (compareVersions(v, p)! < 0) c = -1;
  else if (compareVersions(v, nextOf(p))! >= 0) c = 1;
  return c === null ? null : flip ? (-c as -1 | 1) : c;
}

/**
 * An asset's version against a version from the feed (a bound, or a CPE's exact version). An asset
 * version of another scheme is not ordered at all (version_scheme null: unknown, as the reference
 * answers it) unless it is the same text; a dotted numeric one is ordered against the feed's by
 * compareLoose, so 3.0.5 is past a bound of 1.0.2zd.
 */
export function compareAsset(asset: string, feed: string): -1 | 0 | 1 | null {
  if (versionScheme(asset) === null) return asset.trim().toLowerCase() === feed.trim().toLowerCase() ? 0 : null;
  return compareLoose(asset, feed);
}

export interface VersionRange {
  start_including?: string | null;
  start_excluding?: string | null;
  end_including?: string | null;
  end_excluding?: string | null;
}

export const hasBounds = (r: VersionRange): boolean => !!(r.start_including || r.start_excluding || r.end_including || r.end_excluding);

/** Whether `version` lies in the range: true, false, or null when a comparison is not possible. */
export function inRange(version: string, r: VersionRange): boolean | null {
  const checks: [string | null | undefined, (c: number) => boolean][] = [
    [r.start_including, (c) => c >= 0],
    [r.start_excluding, (c) => c > 0],
    [r.end_including, (c) => c <= 0],
    [r.end_excluding, (c) => c < 0],
  ];
  let unknown = false;
  for (const [bound, ok] of checks) {
    if (!bound) continue;
    const c = compareAsset(version, bound);
    if (c === null) unknown = true;
    else if (!ok(c)) return false;
  }
  return unknown ? null : true;
}
