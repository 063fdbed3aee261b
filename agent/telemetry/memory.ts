// Memory and swap use from /proc/meminfo: used = MemTotal - MemAvailable (what the kernel could hand
// out without swapping), swap used = SwapTotal - SwapFree.
import { pct, readText } from "./proc.ts";

export interface MemoryUse {
  mem_pct: number;
  swap_pct: number;
  mem_total_bytes: number;
  mem_available_bytes: number;
  swap_total_bytes: number;
  swap_free_bytes: number;
}

export function parseMeminfo(text: string): MemoryUse | undefined {
  const kb = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^(\w+):\s+(\d+)/.exec(line);
    if (m) kb.set(m[1]!, Number(m[2]) * 1024);
  }
  const total = kb.get("MemTotal");
  if (total === undefined) return undefined;
  const available = kb.get("MemAvailable") ?? (kb.get("MemFree") ?? 0) + (kb.get("Buffers") ?? 0) + (kb.get("Cached") ?? 0);
  const swapTotal = kb.get("SwapTotal") ?? 0;
  const swapFree = kb.get("SwapFree") ?? 0;
  return {
    mem_pct: pct(total - available, total),
    swap_pct: pct(swapTotal - swapFree, swapTotal),
    mem_total_bytes: total,
    mem_available_bytes: available,
    swap_total_bytes: swapTotal,
    swap_free_bytes: swapFree,
  };
}

export function readMemory(procRoot = "/proc"): MemoryUse | undefined {
  const text = readText(`${procRoot}/meminfo`);
  return text === undefined ? undefined : parseMeminfo(text);
}
