// CPU busy percentage from /proc/stat: the first line's jiffies, busy = total - idle - iowait, taken
// as the difference between two readings (a single reading only gives the average since boot).
import { pct, readText } from "./proc.ts";

export interface CpuTimes {
  total: number;
  idle: number;
}

export function parseProcStat(text: string): CpuTimes | undefined {
  const line = text.split("\n").find((l) => l.startsWith("cpu "));
  if (!line) return undefined;
  const n = line.trim().split(/\s+/).slice(1).map(Number);
  if (n.length < 4 || n.some((x) => !Number.isFinite(x))) return undefined;
  // user nice system idle iowait irq softirq steal (guest and guest_nice are inside user and nice)
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  return { total, idle: (n[3] ?? 0) + (n[4] ?? 0) };
}

/** The busy share between two readings; the average since boot when there is no earlier one. */
export function cpuPct(prev: CpuTimes | undefined, cur: CpuTimes): number {
  const base = prev ?? { total: 0, idle: 0 };
  const total = cur.total - base.total;
  return total > 0 ? pct(total - (cur.idle - base.idle), total) : 0;
}

export function readCpuTimes(procRoot = "/proc"): CpuTimes | undefined {
  const text = readText(`${procRoot}/stat`);
  return text === undefined ? undefined : parseProcStat(text);
}
