// Discovery (issue 13, performance): the scan engine sweeps a /22 of loopback (127.0.4.0/22, 1,022
// addresses) with ping and the top-100 TCP ports per host, 512 sockets at most, against 40 listeners
// (2 ports on each of 20 addresses spread over the range) served by this process. Every loopback
// address answers, so all 1,022 hosts are up and every port is tried: the worst case of a full sweep.
// Figures: elapsed seconds (target < 60 s), the socket budget's peak (<= 512), hosts and open ports found.
import { createServer, type Server } from "node:net";
import { PORT_PRESETS } from "../../shared/domain/discovery/ports.ts";
import { intToIp, ipToInt, parseTargets } from "../../shared/domain/discovery/targets.ts";
import { SocketBudget } from "../../net/socket-budget.ts";
import { runScan } from "../../sidecar/discovery/engine/run-scan.ts";
import type { BenchRow } from "./harness.ts";

const RANGE = "127.0.4.0/22";
const MAX_SOCKETS = 512;
// Ports of the top 100 a process may bind without privilege.
const LISTEN_PORTS = [3000, 8080];
const LISTEN_HOSTS = Array.from({ length: 20 }, (_, i) => intToIp(ipToInt("127.0.4.0")! + 1 + i * 51));

async function listeners(): Promise<{ count: number; close(): Promise<void> }> {
  const servers: Server[] = [];
  for (const host of LISTEN_HOSTS) {
    for (const port of LISTEN_PORTS) {
      const server = createServer((s) => {
        s.on("error", () => {});
        s.end();
      });
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => resolve());
      });
      servers.push(server);
    }
  }
  return {
    count: servers.length,
    close: () => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))).then(() => {}),
  };
}

export async function sweep(): Promise<{
  elapsed_s: number;
  peak_sockets: number;
  hosts: number;
  open_ports: number;
  other_open: number;
  pinged: number;
  listeners: number;
}> {
  const targets = parseTargets({ targets: [RANGE] });
  if (!targets.ok) throw new Error(targets.message);
  const peers = await listeners();
  const budget = new SocketBudget(MAX_SOCKETS);
  let hosts = 0;
  let openPorts = 0;
  let otherOpen = 0;
  let pinged = 0;
  const listening = new Set(LISTEN_HOSTS.flatMap((h) => LISTEN_PORTS.map((p) => `${h}:${p}`)));
  try {
    const started = performance.now();
    await runScan(
      {
        targets: targets.value,
        scan_types: ["icmp", "tcp"],
        tcp_ports: [...PORT_PRESETS.top100],
        host_timeout_ms: 10_000,
        max_sockets: MAX_SOCKETS,
        max_concurrent_hosts: 128,
        nmap_arguments: null,
        snmp: null,
      },
      {
        signal: new AbortController().signal,
        onHost: (f) => {
          hosts++;
          if (f.sources.includes("icmp")) pinged++;
          for (const p of f.open_ports) {
            if (listening.has(`${f.ip_address}:${p.port}`)) openPorts++;
            else otherOpen++; // a service of the machine bound to 0.0.0.0 on a top-100 port (snmpd's smux on 199...)
          }
        },
        onProgress: () => {},
        onLog: () => {},
      },
      { budget },
    );
    return {
      elapsed_s: Math.round((performance.now() - started) / 100) / 10,
      peak_sockets: budget.peak,
      hosts,
      open_ports: openPorts,
      other_open: otherOpen,
      pinged,
      listeners: peers.count,
    };
  } finally {
    await peers.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  const r = await sweep();
  return [
    {
      name: `sweep ${RANGE} (1022 addresses), ping + top100 TCP, ${MAX_SOCKETS} sockets max`,
      total_ms: Math.round(r.elapsed_s * 1000),
      note: `${r.elapsed_s} s (target < 60 s); peak ${r.peak_sockets} sockets open (cap ${MAX_SOCKETS}); ${r.hosts} hosts up (${r.pinged} answered the ping), ${r.open_ports} of ${r.listeners} listening ports found open${r.other_open ? ` (+${r.other_open} open ports of other local services)` : ""}`,
    },
  ];
}
