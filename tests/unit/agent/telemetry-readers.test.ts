// The reference agent's telemetry readers against this machine's /proc and statfs, plus the parsers on
// fixed text where the machine's values cannot be predicted (deltas, escapes, missing fields).
import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { TelemetryHostPayload } from "../../../shared/agents/payloads.ts";
import { MAX_FRAME_BYTES } from "../../../shared/agents/frames.ts";
import { cpuPct, parseProcStat, readCpuTimes } from "../../../agent/telemetry/cpu.ts";
import { diskRates, parseDiskstats } from "../../../agent/telemetry/disks.ts";
import { parseMounts, readFilesystems, rootDiskPct } from "../../../agent/telemetry/filesystems.ts";
import { parseMeminfo, readMemory } from "../../../agent/telemetry/memory.ts";
import { interfaceRates, parseNetDev, readNetDev, totalRates } from "../../../agent/telemetry/network.ts";
import { HostSampler } from "../../../agent/telemetry/sampler.ts";
import { parseLoadavg, parseUptime, readLoad, readUptime } from "../../../agent/telemetry/system.ts";
import { maxTemperature, readTemperatures } from "../../../agent/telemetry/temperatures.ts";
import { buildTelemetryHost } from "../../../agent/payloads.ts";

const between = (n: number | null | undefined, lo: number, hi: number) => typeof n === "number" && n >= lo && n <= hi;

describe("this machine's /proc", () => {
  it("reads CPU times and turns two readings into a busy percentage", async () => {
    const a = readCpuTimes()!;
    expect(a.total).toBeGreaterThan(0);
    // Burn a little CPU so the second reading differs.
    const until = Date.now() + 60;
    while (Date.now() < until) Math.sqrt(Math.random());
    await new Promise((r) => setTimeout(r, 40));
    const b = readCpuTimes()!;
    expect(b.total).toBeGreaterThanOrEqual(a.total);
    expect(between(cpuPct(a, b), 0, 100)).toBe(true);
    expect(between(cpuPct(undefined, b), 0, 100)).toBe(true);
  });

  it("reads memory, load, uptime and the root filesystem", () => {
    const mem = readMemory()!;
    expect(mem.mem_total_bytes).toBeGreaterThan(0);
    expect(between(mem.mem_pct, 0.01, 100)).toBe(true);
    expect(between(mem.swap_pct, 0, 100)).toBe(true);
    expect(between(readLoad()!.load_1, 0, 10_000)).toBe(true);
    expect(readUptime()!).toBeGreaterThan(0);
    expect(between(rootDiskPct(), 0, 100)).toBe(true);
    for (const f of readFilesystems(false)) {
      expect(f.total_bytes).toBeGreaterThan(0);
      expect(between(f.used_pct, 0, 100)).toBe(true);
      expect(["proc", "sysfs", "tmpfs", "cgroup2"]).not.toContain(f.fstype);
    }
  });

  it("reads interfaces, including loopback, and temperatures when the machine has them", () => {
    const nics = readNetDev();
    expect(nics.map((n) => n.name)).toContain("lo");
    const temps = readTemperatures();
    const max = maxTemperature(temps);
    if (temps.length) expect(between(max, -40, 200)).toBe(true);
    else expect(max).toBeNull();
  });

  it("samples a telemetry.host payload the sidecar's schema accepts, with rates from the second sample on", () => {
    const sampler = new HostSampler();
    const t0 = new Date();
    const first = sampler.sample({});
    const second = sampler.sample({}, new Date(t0.getTime() + 1000));
    for (const p of [first, second]) {
      const parsed = v.safeParse(TelemetryHostPayload, p);
      expect(parsed.success, JSON.stringify(parsed.issues?.[0])).toBe(true);
      expect(p.sample_id).toMatch(/^[0-9a-f]{32}$/);
      expect(p.status).toBe("healthy");
      expect(between(p.summary.cpu_pct, 0, 100)).toBe(true);
      expect(between(p.summary.mem_pct, 0, 100)).toBe(true);
      expect(between(p.summary.root_disk_pct, 0, 100)).toBe(true);
      expect(p.summary.uptime_s).toBeGreaterThan(0);
      expect((p.interfaces ?? []).length).toBeGreaterThan(0);
    }
    expect(second.sample_id).not.toBe(first.sample_id);
    const noLists = sampler.sample({
      include_filesystems: false,
      include_disks: false,
      include_network: false,
      include_temperatures: false,
    });
    expect([noLists.filesystems, noLists.disks, noLists.interfaces, noLists.temperatures]).toEqual([[], [], [], []]);
  });
});

describe("the parsers", () => {
  it("/proc/stat: busy share from deltas, iowait counted as idle", () => {
    const a = parseProcStat("cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 1 2 3 4\n")!;
    const b = parseProcStat("cpu  150 0 150 800 100 0 0 0 0 0\n")!;
    expect(a).toEqual({ total: 1000, idle: 800 });
    expect(cpuPct(a, b)).toBe(50);
    expect(parseProcStat("intr 1 2 3")).toBeUndefined();
  });

  it("/proc/meminfo: MemAvailable, and swap 0 without swap", () => {
    const m = parseMeminfo("MemTotal: 1000 kB\nMemFree: 100 kB\nMemAvailable: 250 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n")!;
    expect(m.mem_pct).toBe(75);
    expect(m.swap_pct).toBe(0);
    expect(
      parseMeminfo("MemTotal: 1000 kB\nMemFree: 500 kB\nBuffers: 0 kB\nCached: 100 kB\nSwapTotal: 200 kB\nSwapFree: 50 kB")!,
    ).toMatchObject({ mem_pct: 40, swap_pct: 75 });
  });

  it("/proc/loadavg and /proc/uptime", () => {
    expect(parseLoadavg("0.52 0.58 0.59 1/467 12345\n")).toEqual({ load_1: 0.52, load_5: 0.58, load_15: 0.59 });
    expect(parseUptime("12345.67 54321.00\n")).toBe(12345);
    expect(parseLoadavg("garbage")).toBeUndefined();
  });

  it("/proc/net/dev: rates from deltas; loopback left out of the totals; a counter reset gives 0", () => {
    const head =
      "Inter-|   Receive |  Transmit\n face |bytes packets errs drop fifo frame compressed multicast|bytes packets errs drop fifo colls carrier compressed\n";
    const row = (name: string, rx: number, tx: number) => `  ${name}: ${rx} 10 0 0 0 0 0 0 ${tx} 10 0 0 0 0 0 0\n`;
    const a = parseNetDev(head + row("lo", 1000, 1000) + row("eth0", 5000, 2000));
    const b = parseNetDev(head + row("lo", 9000, 9000) + row("eth0", 7000, 1000));
    expect(a.map((i) => i.name)).toEqual(["lo", "eth0"]);
    const rates = interfaceRates(a, b, 2);
    expect(rates.find((r) => r.name === "eth0")).toMatchObject({ rx_bps: 1000, tx_bps: 0 });
    expect(totalRates(rates)).toEqual({ net_rx_bps: 1000, net_tx_bps: 0 });
    expect(interfaceRates(undefined, b, 0).every((r) => r.rx_bps === 0)).toBe(true);
  });

  it("/proc/mounts: pseudo filesystems out, virtual ones only when asked, escapes decoded, duplicates once", () => {
    const text =
      "/dev/sda1 / ext4 rw 0 0\nproc /proc proc rw 0 0\ntmpfs /run tmpfs rw 0 0\n/dev/sdb1 /mnt/my\\040disk xfs rw 0 0\n/dev/sda1 / ext4 rw 0 0\n";
    expect(parseMounts(text, false).map((m) => m.mountpoint)).toEqual(["/", "/mnt/my disk"]);
    expect(parseMounts(text, true).map((m) => m.mountpoint)).toEqual(["/", "/run", "/mnt/my disk"]);
  });

  it("/proc/diskstats: whole disks only, bytes per second from sectors", () => {
    const text =
      "   8       0 sda 100 0 2000 0 50 0 4000 0 0 0 0\n   8       1 sda1 1 0 8 0 0 0 0 0 0 0 0\n   7       0 loop0 1 0 8 0 0 0 0 0 0 0 0\n 259 0 nvme0n1 1 0 8 0 1 0 8 0 0 0 0\n";
    const a = parseDiskstats(text);
    expect(a.map((d) => d.name)).toEqual(["sda", "nvme0n1"]);
    const b = parseDiskstats(text.replace("100 0 2000", "110 0 2200"));
    expect(diskRates(a, b, 1).find((d) => d.name === "sda")).toMatchObject({ read_bps: 200 * 512, write_bps: 0 });
  });
});

describe("telemetry.host size", () => {
  it("trims the longest lists until the frame fits, never the summary", () => {
    const big = Array.from({ length: 128 }, (_, i) => ({ name: `veth${i}`, note: "x".repeat(400) }));
    const p = buildTelemetryHost({
      sample_id: "0".repeat(32),
      collected_at: new Date(),
      summary: {
        cpu_pct: 1,
        mem_pct: 2,
        swap_pct: 0,
        root_disk_pct: 3,
        net_rx_bps: 4,
        net_tx_bps: 5,
        max_temp_c: null,
        load_1: 0.1,
        uptime_s: 9,
      },
      interfaces: big,
      filesystems: big.slice(0, 40),
      temperatures: Array.from({ length: 300 }, (_, i) => ({ sensor: `t${i}`, celsius: 40 })),
    });
    expect(new TextEncoder().encode(JSON.stringify(p)).length + 128).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    expect(p.interfaces!.length).toBeLessThan(128);
    expect(p.temperatures!.length).toBeLessThanOrEqual(256);
    expect(p.summary.cpu_pct).toBe(1);
    expect(v.safeParse(TelemetryHostPayload, p).success).toBe(true);
  });
});
