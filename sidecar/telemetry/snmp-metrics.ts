// SNMP values to percentages (pure, unit-tested): sysUpTime ticks to seconds, hrProcessorLoad averaged,
// memory from hrStorageRam and disk from the largest fixed disk (used / size), and CPU from the UCD
// raw tick counters of two polls when the host has no hrProcessorLoad yet (net-snmp fills it only
// after its first minute).

export const OID = {
  sysUpTime: "1.3.6.1.2.1.1.3.0",
  hrProcessorLoad: "1.3.6.1.2.1.25.3.3.1.2",
  hrStorageEntry: "1.3.6.1.2.1.25.2.3.1",
  hrStorageRam: "1.3.6.1.2.1.25.2.1.2",
  hrStorageFixedDisk: "1.3.6.1.2.1.25.2.1.4",
} as const;

/** UCD-SNMP-MIB ssCpuRaw* tick counters (Counter32): user, nice, system (incl. irq), idle, wait. */
export const CPU_RAW = {
  user: "1.3.6.1.4.1.2021.11.50.0",
  nice: "1.3.6.1.4.1.2021.11.51.0",
  system: "1.3.6.1.4.1.2021.11.52.0",
  idle: "1.3.6.1.4.1.2021.11.53.0",
  wait: "1.3.6.1.4.1.2021.11.54.0",
} as const;
export type CpuCounters = Record<keyof typeof CPU_RAW, number>;

export interface Varbind {
  oid: string;
  value: unknown;
}

const round = (n: number) => Math.round(n * 100) / 100;
const clampPct = (n: number) => round(Math.min(100, Math.max(0, n)));

export function asNumber(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && /^\d+(\.\d+)?$/.test(value)) return Number(value);
  return null;
}

/** sysUpTime is in hundredths of a second. */
export function uptimeSeconds(ticks: unknown): number | null {
  const n = asNumber(ticks);
  return n == null || n < 0 ? null : n / 100;
}

/** The average of hrProcessorLoad over every processor; null when the table is empty. */
export function averageLoad(varbinds: readonly Varbind[]): number | null {
  const loads = varbinds.map((vb) => asNumber(vb.value)).filter((n): n is number => n != null);
  if (loads.length === 0) return null;
  return clampPct(loads.reduce((a, b) => a + b, 0) / loads.length);
}

export interface StorageRow {
  index: string;
  type: string | null;
  units: number | null;
  size: number | null;
  used: number | null;
}

const COLUMNS: Record<string, keyof Omit<StorageRow, "index">> = { "2": "type", "4": "units", "5": "size", "6": "used" };

/** hrStorageEntry varbinds (`<entry>.<column>.<index>`) grouped into rows by index. */
export function storageRows(varbinds: readonly Varbind[]): StorageRow[] {
  const rows = new Map<string, StorageRow>();
  const prefix = `${OID.hrStorageEntry}.`;
  for (const vb of varbinds) {
    const oid = vb.oid.replace(/^\./, "");
    if (!oid.startsWith(prefix)) continue;
    const [column, ...rest] = oid.slice(prefix.length).split(".");
    const field = COLUMNS[column ?? ""];
    if (!field || rest.length === 0) continue;
    const index = rest.join(".");
    const row = rows.get(index) ?? { index, type: null, units: null, size: null, used: null };
    if (field === "type") row.type = typeof vb.value === "string" ? vb.value.replace(/^\./, "") : null;
    else row[field] = asNumber(vb.value);
    rows.set(index, row);
  }
  return [...rows.values()];
}

function usedPct(row: StorageRow | undefined): number | null {
  if (!row || row.size == null || row.used == null || row.size <= 0) return null;
  return clampPct((row.used / row.size) * 100);
}

/** Memory: the hrStorageRam row. Disk: the fixed disk with the most bytes (size x allocation units). */
export function storagePercents(rows: readonly StorageRow[]): { mem_pct: number | null; disk_pct: number | null } {
  const ram = rows.find((r) => r.type === OID.hrStorageRam);
  const bytes = (r: StorageRow) => (r.size ?? 0) * (r.units ?? 1);
  const disks = rows.filter((r) => r.type === OID.hrStorageFixedDisk && (r.size ?? 0) > 0).sort((a, b) => bytes(b) - bytes(a));
  return { mem_pct: usedPct(ram), disk_pct: usedPct(disks[0]) };
}

/** The raw CPU counters from a GET of CPU_RAW; null when the agent has none (or has not filled them). */
export function cpuCounters(varbinds: readonly Varbind[]): CpuCounters | null {
  const byOid = new Map(varbinds.map((vb) => [vb.oid.replace(/^\./, ""), asNumber(vb.value)]));
  const out = {} as CpuCounters;
  for (const [name, oid] of Object.entries(CPU_RAW) as [keyof CpuCounters, string][]) {
    const n = byOid.get(oid);
    if (n == null) return null;
    out[name] = n;
  }
  return Object.values(out).some((n) => n > 0) ? out : null;
}

const COUNTER32 = 2 ** 32;

/** Busy share of the ticks between two polls (Counter32 wrap-around allowed); null without progress. */
export function cpuPercentBetween(before: CpuCounters, after: CpuCounters): number | null {
  const delta = (k: keyof CpuCounters) => {
    const d = after[k] - before[k];
    return d < 0 ? d + COUNTER32 : d;
  };
  const busy = delta("user") + delta("nice") + delta("system");
  const total = busy + delta("idle") + delta("wait");
  return total > 0 ? clampPct((busy / total) * 100) : null;
}
