// One telemetry.host sample of this machine. Rates (CPU, network, disks) need two readings: the sampler
// keeps the previous counters, so its first sample reports CPU as the average since boot and rates as 0.
// A collector that fails marks the sample degraded instead of dropping it.
import { randomBytes } from "node:crypto";
import { buildTelemetryHost } from "../payloads.ts";
import type { AgentPayloadInput } from "../../shared/agents/payloads.ts";
import { type CpuTimes, cpuPct, readCpuTimes } from "./cpu.ts";
import { type DiskCounters, diskRates, readDiskstats } from "./disks.ts";
import { readFilesystems, rootDiskPct } from "./filesystems.ts";
import { readMemory } from "./memory.ts";
import { type InterfaceCounters, interfaceRates, readNetDev, totalRates } from "./network.ts";
import { readLoad, readUptime } from "./system.ts";
import { maxTemperature, readTemperatures } from "./temperatures.ts";

/** The host_telemetry grant's config keys the sampler reads. */
export interface TelemetryConfig {
  include_filesystems?: boolean;
  include_disks?: boolean;
  include_network?: boolean;
  include_temperatures?: boolean;
  include_virtual?: boolean;
}

export class HostSampler {
  #cpu: CpuTimes | undefined;
  #net: InterfaceCounters[] | undefined;
  #disks: DiskCounters[] | undefined;
  #at = 0;
  readonly #procRoot: string;
  readonly #sysRoot: string;

  constructor(roots: { proc?: string; sys?: string } = {}) {
    this.#procRoot = roots.proc ?? "/proc";
    this.#sysRoot = roots.sys ?? "/sys";
  }

  sample(config: TelemetryConfig, now: Date = new Date()): AgentPayloadInput<"telemetry.host"> {
    const seconds = this.#at ? (now.getTime() - this.#at) / 1000 : 0;
    this.#at = now.getTime();
    const cpu = readCpuTimes(this.#procRoot);
    const cpu_pct = cpu ? cpuPct(this.#cpu, cpu) : null;
    this.#cpu = cpu;
    const mem = readMemory(this.#procRoot);
    const load = readLoad(this.#procRoot);
    const uptime = readUptime(this.#procRoot);
    const net = readNetDev(this.#procRoot);
    const rates = interfaceRates(this.#net, net, seconds);
    this.#net = net;
    const disks = readDiskstats(this.#procRoot);
    const diskRate = diskRates(this.#disks, disks, seconds);
    this.#disks = disks;
    const temps = config.include_temperatures === false ? [] : readTemperatures(this.#sysRoot);
    const root = rootDiskPct();
    const totals = totalRates(rates);
    return buildTelemetryHost({
      sample_id: randomBytes(16).toString("hex"),
      collected_at: now,
      degraded: cpu === undefined || mem === undefined || load === undefined || uptime === undefined || root === undefined,
      summary: {
        cpu_pct,
        mem_pct: mem?.mem_pct ?? null,
        swap_pct: mem?.swap_pct ?? null,
        root_disk_pct: root ?? null,
        net_rx_bps: totals.net_rx_bps,
        net_tx_bps: totals.net_tx_bps,
        max_temp_c: maxTemperature(temps),
        load_1: load?.load_1 ?? null,
        uptime_s: uptime ?? null,
      },
      filesystems:
        config.include_filesystems === false ? [] : readFilesystems(config.include_virtual === true, this.#procRoot).map((f) => ({ ...f })),
      disks: config.include_disks === false ? [] : diskRate.map((d) => ({ ...d })),
      interfaces: config.include_network === false ? [] : rates.map((r) => ({ ...r })),
      temperatures: temps.map((t) => ({ ...t })),
    });
  }
}
