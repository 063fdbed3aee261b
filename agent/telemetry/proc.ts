// Reading the kernel's text files: absent files (a container without /sys/class/thermal, a kernel
// without swap) are normal and give undefined, never an exception.
import { readdirSync, readFileSync } from "node:fs";

export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

export function listDir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/** Rounded to two decimals, as the summary reports percentages and rates. */
export const round2 = (n: number) => Math.round(n * 100) / 100;

/** A percentage of used over total, 0 when total is 0. */
export const pct = (used: number, total: number) => (total > 0 ? round2(Math.min(100, Math.max(0, (used / total) * 100))) : 0);
