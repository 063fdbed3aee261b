// The payloads the simulated fleet sends: the reference agent's own builders (agent/payloads.ts) fed
// with the numbers of a typical small Linux host (two filesystems, two interfaces, one sensor), so the
// sidecar parses exactly the frames a real agent sends, about 1 KiB of JSON per telemetry.host.
import { randomBytes } from "node:crypto";
import { buildHeartbeat, buildHello, buildTelemetryHost } from "../../../agent/payloads.ts";

export const BENCH_AGENT_VERSION = "bench-1.0.0";

export function benchHello(devicePkHex: string) {
  return buildHello({
    device_pk: devicePkHex,
    hostname: `bench-${devicePkHex.slice(0, 12)}`,
    machine_id_hash: devicePkHex,
    os: "linux",
    os_version: "Debian 12",
    arch: "amd64",
    primary_macs: [],
    networks: [{ name: "eth0", flags: ["up"], addrs: ["127.0.0.1/8"] }],
    readiness: [{ collector: "host_telemetry", state: "ready", reason: null, remediation: null, missing: [] }],
    spool_depth: 0,
    agent_version: BENCH_AGENT_VERSION,
  });
}

export function benchHeartbeat(spoolDepth: number) {
  return buildHeartbeat({ spool_depth: spoolDepth, spool_bytes: spoolDepth * 1200 });
}

const pct = () => Math.round(Math.random() * 10000) / 100;

export function benchTelemetry() {
  return buildTelemetryHost({
    sample_id: randomBytes(16).toString("hex"),
    collected_at: new Date(),
    summary: {
      cpu_pct: pct(),
      mem_pct: pct(),
      swap_pct: 0,
      root_disk_pct: 41.5,
      net_rx_bps: 12000,
      net_tx_bps: 3400,
      max_temp_c: 48,
      load_1: 0.42,
      uptime_s: 864000,
    },
    filesystems: [
      { mount: "/", fstype: "ext4", total_bytes: 64e9, used_bytes: 26.5e9, used_pct: 41.5 },
      { mount: "/boot", fstype: "vfat", total_bytes: 512e6, used_bytes: 60e6, used_pct: 11.7 },
    ],
    interfaces: [
      { name: "eth0", rx_bps: 12000, tx_bps: 3400, up: true },
      { name: "lo", rx_bps: 100, tx_bps: 100, up: true },
    ],
    temperatures: [{ sensor: "cpu", celsius: 48 }],
  });
}
