// Interface counters from /proc/net/dev; bytes per second are the difference between two readings over
// the time between them. The summary's rx/tx sums every interface but loopback.
import { readText, round2 } from "./proc.ts";

export interface InterfaceCounters {
  name: string;
  rx_bytes: number;
  rx_packets: number;
  rx_errors: number;
  rx_dropped: number;
  tx_bytes: number;
  tx_packets: number;
  tx_errors: number;
  tx_dropped: number;
}

export interface InterfaceRates extends InterfaceCounters {
  rx_bps: number;
  tx_bps: number;
}

export function parseNetDev(text: string): InterfaceCounters[] {
  const out: InterfaceCounters[] = [];
  for (const line of text.split("\n").slice(2)) {
    const m = /^\s*([^:\s]+):\s*(.*)$/.exec(line);
    if (!m) continue;
    const n = m[2]!.trim().split(/\s+/).map(Number);
    if (n.length < 16 || n.some((x) => !Number.isFinite(x))) continue;
    out.push({
      name: m[1]!,
      rx_bytes: n[0]!,
      rx_packets: n[1]!,
      rx_errors: n[2]!,
      rx_dropped: n[3]!,
      tx_bytes: n[8]!,
      tx_packets: n[9]!,
      tx_errors: n[10]!,
      tx_dropped: n[11]!,
    });
  }
  return out;
}

/** Rates between two readings `seconds` apart; 0 for an interface new since then or a counter reset. */
export function interfaceRates(prev: InterfaceCounters[] | undefined, cur: InterfaceCounters[], seconds: number): InterfaceRates[] {
  const before = new Map((prev ?? []).map((i) => [i.name, i]));
  const rate = (a: number, b: number | undefined) => (b === undefined || seconds <= 0 || a < b ? 0 : round2((a - b) / seconds));
  return cur.map((i) => ({
    ...i,
    rx_bps: rate(i.rx_bytes, before.get(i.name)?.rx_bytes),
    tx_bps: rate(i.tx_bytes, before.get(i.name)?.tx_bytes),
  }));
}

export function totalRates(rates: InterfaceRates[]): { net_rx_bps: number; net_tx_bps: number } {
  const real = rates.filter((r) => r.name !== "lo");
  return { net_rx_bps: round2(real.reduce((a, r) => a + r.rx_bps, 0)), net_tx_bps: round2(real.reduce((a, r) => a + r.tx_bps, 0)) };
}

export function readNetDev(procRoot = "/proc"): InterfaceCounters[] {
  const text = readText(`${procRoot}/net/dev`);
  return text === undefined ? [] : parseNetDev(text);
}
