// Load averages (/proc/loadavg) and uptime (/proc/uptime).
import { readText } from "./proc.ts";

export interface LoadAverages {
  load_1: number;
  load_5: number;
  load_15: number;
}

export function parseLoadavg(text: string): LoadAverages | undefined {
  const [a, b, c] = text.trim().split(/\s+/).map(Number);
  if (![a, b, c].every((x) => x !== undefined && Number.isFinite(x))) return undefined;
  return { load_1: a!, load_5: b!, load_15: c! };
}

export function parseUptime(text: string): number | undefined {
  const s = Number(text.trim().split(/\s+/)[0]);
  return Number.isFinite(s) ? Math.floor(s) : undefined;
}

export function readLoad(procRoot = "/proc"): LoadAverages | undefined {
  const text = readText(`${procRoot}/loadavg`);
  return text === undefined ? undefined : parseLoadavg(text);
}

export function readUptime(procRoot = "/proc"): number | undefined {
  const text = readText(`${procRoot}/uptime`);
  return text === undefined ? undefined : parseUptime(text);
}
