// The kernel's IPv4 neighbour (ARP) table from /proc/net/arp: which MAC answered for which address on
// the local segments. Linux only; elsewhere the file is missing and the table is empty.
import { readFile } from "node:fs/promises";

export const PROC_NET_ARP = "/proc/net/arp";

const MAC = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/;
// ATF_COM: the entry is complete (an incomplete entry has flags 0x0 and no MAC).
const ATF_COM = 0x2;

/**
 * IP → MAC (lower-case). Skips the header, incomplete entries and all-zero MACs.
 * Columns: IP address, HW type, Flags, HW address, Mask, Device.
 */
export function parseArpTable(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\n").slice(1)) {
    const [ip, , flags, mac] = line.trim().split(/\s+/);
    if (!ip || !flags || !mac) continue;
    const lower = mac.toLowerCase();
    if (!MAC.test(lower) || lower === "00:00:00:00:00:00") continue;
    if ((Number.parseInt(flags, 16) & ATF_COM) === 0) continue;
    out.set(ip, lower);
  }
  return out;
}

export async function readArpTable(path = PROC_NET_ARP): Promise<Map<string, string>> {
  try {
    return parseArpTable(await readFile(path, "utf8"));
  } catch {
    return new Map();
  }
}

/**
 * Reads the table no more often than needed: `after(t)` answers with a reading begun at or after `t`
 * (ms of performance.now()), sharing one read among every host that finished probing before it began.
 */
export class NeighbourTable {
  readonly #path: string;
  #current: { at: number; table: Promise<Map<string, string>> } | null = null;

  constructor(path = PROC_NET_ARP) {
    this.#path = path;
  }

  after(t: number): Promise<Map<string, string>> {
    if (this.#current && this.#current.at >= t) return this.#current.table;
    const at = performance.now();
    const table = readArpTable(this.#path);
    this.#current = { at, table };
    return table;
  }
}
