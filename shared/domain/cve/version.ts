// Version comparison, conservative on purpose: only the dotted numeric scheme (`1`, `2.4.57`, `7.13.2`) is
// ordered; anything with letters or separators other than dots (`1.2.3a`, `2.0-rc1`, `9.3p1`, dates with
// dashes) is another scheme we cannot order reliably, so a range check involving it answers "unknown".
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
    const c = compareVersions(version, bound);
    if (c === null) unknown = true;
    else if (!ok(c)) return false;
  }
  return unknown ? null : true;
}
