// Block device throughput from /proc/diskstats (sectors of 512 bytes, whatever the device's sector
// size), per second between two readings. Partitions and virtual devices (loop, ram, zram, dm-) are left
// out; whole disks only.
import { readText, round2 } from "./proc.ts";

export interface DiskCounters {
  name: string;
  read_bytes: number;
  write_bytes: number;
  reads: number;
  writes: number;
}

export interface DiskRates extends DiskCounters {
  read_bps: number;
  write_bps: number;
}

const SKIP = /^(loop|ram|zram|dm-|sr|fd)/;
const PARTITION = /^(sd[a-z]+\d+|vd[a-z]+\d+|xvd[a-z]+\d+|hd[a-z]+\d+|nvme\d+n\d+p\d+|mmcblk\d+p\d+)$/;

export function parseDiskstats(text: string): DiskCounters[] {
  const out: DiskCounters[] = [];
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    const name = f[2];
    if (!name || f.length < 10 || SKIP.test(name) || PARTITION.test(name)) continue;
    out.push({ name, reads: Number(f[3]), read_bytes: Number(f[5]) * 512, writes: Number(f[7]), write_bytes: Number(f[9]) * 512 });
  }
  return out;
}

export function diskRates(prev: DiskCounters[] | undefined, cur: DiskCounters[], seconds: number): DiskRates[] {
  const before = new Map((prev ?? []).map((d) => [d.name, d]));
  const rate = (a: number, b: number | undefined) => (b === undefined || seconds <= 0 || a < b ? 0 : round2((a - b) / seconds));
  return cur.map((d) => ({
    ...d,
    read_bps: rate(d.read_bytes, before.get(d.name)?.read_bytes),
    write_bps: rate(d.write_bytes, before.get(d.name)?.write_bytes),
  }));
}

export function readDiskstats(procRoot = "/proc"): DiskCounters[] {
  const text = readText(`${procRoot}/diskstats`);
  return text === undefined ? [] : parseDiskstats(text);
}
