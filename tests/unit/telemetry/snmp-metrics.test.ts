import { describe, expect, it } from "vitest";
import {
  averageLoad,
  CPU_RAW,
  cpuCounters,
  cpuPercentBetween,
  OID,
  storagePercents,
  storageRows,
  uptimeSeconds,
} from "../../../sidecar/telemetry/snmp-metrics.ts";

const E = OID.hrStorageEntry;
const row = (i: number, type: string, units: number, size: number, used: number) => [
  { oid: `${E}.2.${i}`, value: type },
  { oid: `${E}.3.${i}`, value: `storage ${i}` },
  { oid: `${E}.4.${i}`, value: units },
  { oid: `${E}.5.${i}`, value: size },
  { oid: `${E}.6.${i}`, value: used },
];

describe("SNMP values to metrics", () => {
  it("turns sysUpTime ticks into seconds", () => {
    expect(uptimeSeconds(149)).toBe(1.49);
    expect(uptimeSeconds(8_640_000)).toBe(86_400);
    expect(uptimeSeconds("x")).toBeNull();
  });

  it("averages hrProcessorLoad over every processor", () => {
    expect(
      averageLoad([
        { oid: `${OID.hrProcessorLoad}.196608`, value: 10 },
        { oid: `${OID.hrProcessorLoad}.196609`, value: 35 },
      ]),
    ).toBe(22.5);
    expect(averageLoad([])).toBeNull();
  });

  it("reads memory from hrStorageRam and disk from the largest fixed disk", () => {
    const rows = storageRows([
      ...row(1, OID.hrStorageRam, 1024, 1000, 250),
      ...row(3, "1.3.6.1.2.1.25.2.1.3", 1024, 5000, 5000), // virtual memory: ignored
      ...row(31, OID.hrStorageFixedDisk, 4096, 1000, 900), // 4 MB
      ...row(36, `.${OID.hrStorageFixedDisk}`, 4096, 3000, 600), // 12 MB: the largest
      ...row(40, OID.hrStorageFixedDisk, 512, 20000, 20000), // 10 MB
    ]);
    expect(rows).toHaveLength(5);
    expect(storagePercents(rows)).toEqual({ mem_pct: 25, disk_pct: 20 });
  });

  it("leaves a metric null when its row is missing or has no size", () => {
    expect(storagePercents(storageRows(row(1, OID.hrStorageRam, 1024, 0, 0)))).toEqual({ mem_pct: null, disk_pct: null });
    expect(storagePercents([])).toEqual({ mem_pct: null, disk_pct: null });
  });

  it("computes CPU busy share from two polls of the raw tick counters, across a Counter32 wrap", () => {
    const vbs = (user: number, nice: number, system: number, idle: number, wait: number) =>
      Object.values(CPU_RAW).map((oid, i) => ({ oid, value: [user, nice, system, idle, wait][i] }));
    const a = cpuCounters(vbs(1000, 0, 500, 8000, 500))!;
    const b = cpuCounters(vbs(1300, 0, 600, 8550, 550))!; // busy +400 of +1000
    expect(cpuPercentBetween(a, b)).toBe(40);
    const wrapped = cpuCounters(vbs(2 ** 32 - 100, 0, 0, 1000, 0))!;
    expect(cpuPercentBetween(wrapped, cpuCounters(vbs(100, 0, 0, 1200, 0))!)).toBe(50);
    expect(cpuPercentBetween(a, a)).toBeNull();
    expect(cpuCounters(vbs(0, 0, 0, 0, 0))).toBeNull(); // an agent that has not sampled yet
    expect(cpuCounters(vbs(1, 0, 0, 0, 0).slice(1))).toBeNull();
  });
});
