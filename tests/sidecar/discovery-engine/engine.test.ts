// runScan over fake hosts on 127.0.3.x (a greeting SSH-like service, a web server, an HTTPS server, a
// bare TLS service, a silent port, a DNS server with PTR names, a recorded neighbour table), and its
// cancellation in the middle of a /22 sweep of black-holed addresses.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HostFinding } from "../../../shared/domain/discovery/finding.ts";
import { parseTargets, type TargetSet } from "../../../shared/domain/discovery/targets.ts";
import { SocketBudget } from "../../../net/socket-budget.ts";
import type { EngineOptions, ScanPlan } from "../../../sidecar/discovery/engine/plan.ts";
import { runScan, type ScanOutcome, type ScanProgress } from "../../../sidecar/discovery/engine/run-scan.ts";
import { type DnsPeer, type HttpPeer, startDnsPeer, startHttpPeer } from "../monitors/peers.ts";
import {
  blackHole,
  childCommands,
  greetingPeer,
  havePython,
  mutedUdp,
  type Peer,
  silentPeer,
  sleep,
  TLS_FIXTURE,
  tcpSocketsAfterClose,
  tlsPeer,
} from "./support.ts";

const arpFixture = fileURLToPath(new URL("../../fixtures/discovery/proc-net-arp.txt", import.meta.url));

function targets(list: string[]): TargetSet {
  const r = parseTargets({ targets: list });
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

function plan(over: Partial<ScanPlan> & Pick<ScanPlan, "targets" | "scan_types">): ScanPlan {
  return { tcp_ports: [], host_timeout_ms: 3000, max_sockets: 64, max_concurrent_hosts: 16, nmap_arguments: null, snmp: null, ...over };
}

interface Run {
  outcome: ScanOutcome;
  hosts: Map<string, HostFinding>;
  progress: ScanProgress[];
  logs: string[];
}

async function scan(
  p: ScanPlan,
  options: EngineOptions & { budget?: SocketBudget } = {},
  signal = new AbortController().signal,
): Promise<Run> {
  const hosts = new Map<string, HostFinding>();
  const progress: ScanProgress[] = [];
  const logs: string[] = [];
  const outcome = await runScan(
    p,
    {
      signal,
      onHost: (f) => void hosts.set(f.ip_address, f),
      onProgress: (x) => void progress.push(x),
      onLog: (level, phase, message) => void logs.push(`${level} ${phase} ${message}`),
    },
    options,
  );
  return { outcome, hosts, progress, logs };
}

const H = "127.0.3.";
let ssh: Peer;
let web: HttpPeer;
let webTls: HttpPeer;
let tls: Peer;
let silent: Peer;
let dns: DnsPeer;

beforeAll(async () => {
  ssh = await greetingPeer(`${H}2`, "SSH-2.0-OpenSSH_9.6p1 lab\r\n");
  web = await startHttpPeer({ host: `${H}3` });
  web.on("/", {
    status: 200,
    headers: { "content-type": "text/html", server: "nginx/1.24.0" },
    body: "<html><title>Home Assistant</title></html>",
  });
  webTls = await startHttpPeer({ host: `${H}4`, tls: TLS_FIXTURE });
  webTls.on("/", { status: 200, headers: { "content-type": "text/html" }, body: "<title>Proxmox Virtual Environment</title>" });
  tls = await tlsPeer(`${H}5`);
  silent = await silentPeer(`${H}6`);
  dns = await startDnsPeer(
    { "2.3.0.127.in-addr.arpa": { PTR: "nas.lab.test" }, "3.3.0.127.in-addr.arpa": { PTR: "hass.lab.test" } },
    `${H}53`,
  );
});
afterAll(async () => {
  await Promise.all([ssh?.close(), web?.close(), webTls?.close(), tls?.close(), silent?.close(), dns?.close()]);
});

describe("runScan", () => {
  it("finds every host of 127.0.3.1-20 with its open ports, banners, certificate, titles and names", async () => {
    const ports = [ssh.port, web.port, webTls.port, tls.port, silent.port].sort((a, b) => a - b);
    const budget = new SocketBudget(32);
    const run = await scan(
      plan({ targets: targets([`${H}1-${H}20`]), scan_types: ["icmp", "tcp", "dns", "banner", "http"], tcp_ports: ports, max_sockets: 32 }),
      { dnsServers: [`${dns.address}:${dns.port}`], bannerWindowMs: 200, budget },
    );
    expect(run.outcome).toEqual({ addresses_scanned: 20, hosts_found: 20, cancelled: false });
    expect(budget.peak).toBeLessThanOrEqual(32);
    expect(budget.inUse).toBe(0);

    const host = (n: number) => run.hosts.get(`${H}${n}`)!;
    expect(host(2)).toEqual({
      ip_address: `${H}2`,
      mac_address: null,
      hostname: "nas.lab.test",
      open_ports: [{ port: ssh.port, protocol: "tcp", service: "ssh", banner: "SSH-2.0-OpenSSH_9.6p1 lab" }],
      vendor: null,
      os_family: null,
      os_vendor: null,
      os_accuracy: null,
      snmp_sys_name: null,
      snmp_sys_descr: null,
      rtt_ms: expect.any(Number),
      sources: ["icmp", "tcp", "banner", "dns"],
    });
    expect(host(3)).toMatchObject({
      hostname: "hass.lab.test",
      open_ports: [
        {
          port: web.port,
          protocol: "tcp",
          service: "http",
          banner: "HTTP/1.1 200 OK",
          http_title: "Home Assistant",
          server: "nginx/1.24.0",
        },
      ],
      sources: ["icmp", "tcp", "banner", "http", "dns"],
    });
    const cert = {
      subject: "CN=scan-target.test, O=Discovery Test",
      issuer: "CN=scan-target.test, O=Discovery Test",
      not_after: "2126-11-01T01:27:26.000Z",
      san: ["DNS:scan-target.test", "IP Address:127.0.3.5"],
    };
    expect(host(4)).toMatchObject({
      hostname: null,
      open_ports: [
        { port: webTls.port, protocol: "tcp", service: "https", banner: null, tls: cert, http_title: "Proxmox Virtual Environment" },
      ],
      sources: ["icmp", "tcp", "tls", "http"],
    });
    expect(host(5)).toMatchObject({
      open_ports: [{ port: tls.port, protocol: "tcp", service: null, banner: null, tls: cert }],
      sources: ["icmp", "tcp", "tls"],
    });
    expect(host(6)).toMatchObject({
      open_ports: [{ port: silent.port, protocol: "tcp", service: null, banner: null }],
      sources: ["icmp", "tcp"],
    });
    // Every other loopback address answers the ping and refuses the ports: up, nothing open.
    for (const n of [1, 7, 8, 19, 20]) expect(host(n)).toMatchObject({ open_ports: [], sources: expect.arrayContaining(["tcp"]) });
    expect(host(7).rtt_ms).toBeGreaterThan(0);

    const last = run.progress.at(-1)!;
    expect(last).toEqual({ done: 20, total: 20, phase: "done", message: "20 of 20 addresses, 20 hosts found" });
    expect(run.progress.filter((p) => p.phase === "sweep")).toHaveLength(20);
    expect(await tcpSocketsAfterClose(0)).toBe(0);
  });

  it("takes MACs from the neighbour table, and with arp alone reports the table's hosts inside the targets", async () => {
    const withPing = await scan(plan({ targets: targets([`${H}29-${H}31`]), scan_types: ["icmp", "arp"] }), { arpTablePath: arpFixture });
    expect([...withPing.hosts.values()].map((f) => [f.ip_address, f.mac_address, f.sources])).toEqual(
      expect.arrayContaining([
        [`${H}29`, null, ["icmp"]],
        [`${H}30`, "52:54:00:ab:cd:ef", ["icmp", "arp"]],
        [`${H}31`, null, ["icmp"]],
      ]),
    );
    expect(withPing.hosts.size).toBe(3);

    const arpOnly = await scan(plan({ targets: targets([`${H}25-${H}40`]), scan_types: ["arp"] }), { arpTablePath: arpFixture });
    expect(arpOnly.outcome).toEqual({ addresses_scanned: 16, hosts_found: 2, cancelled: false });
    expect([...arpOnly.hosts.values()].map((f) => [f.ip_address, f.mac_address, f.sources])).toEqual([
      [`${H}30`, "52:54:00:ab:cd:ef", ["arp"]],
      [`${H}33`, "b8:27:eb:01:02:03", ["arp"]],
    ]);
  });

  it("with only dns asked for, finds the hosts by ping and TCP and says so", async () => {
    const run = await scan(plan({ targets: targets([`${H}2`]), scan_types: ["dns"], tcp_ports: [ssh.port] }), {
      dnsServers: [`${dns.address}:${dns.port}`],
    });
    expect(run.hosts.get(`${H}2`)).toMatchObject({
      hostname: "nas.lab.test",
      open_ports: [{ port: ssh.port }],
      sources: ["icmp", "tcp", "dns"],
    });
    expect(run.logs).toContain("INFO plan No host-discovery method chosen; ICMP and TCP connect find the hosts");
  });

  it.skipIf(!havePython)(
    "tries all ports of a firewalled host at once: an open port after twenty silent ones is found in time",
    async () => {
      const host = `${H}70`;
      const dropped = Array.from({ length: 20 }, (_, i) => 4500 + i);
      const hole = await blackHole([host], dropped);
      const open = await greetingPeer(host, "SSH-2.0-behind-a-firewall\r\n");
      try {
        const started = performance.now();
        const run = await scan(
          plan({
            targets: targets([host]),
            scan_types: ["icmp", "tcp"],
            tcp_ports: [...dropped, open.port],
            host_timeout_ms: 1500,
            max_sockets: 512,
            max_concurrent_hosts: 128,
          }),
        );
        expect(performance.now() - started).toBeLessThan(3500);
        expect(run.hosts.get(host)).toMatchObject({ open_ports: [{ port: open.port, protocol: "tcp" }], sources: ["icmp", "tcp"] });
      } finally {
        hole.close();
        await open.close();
      }
    },
  );

  it("without a working ping, warns once and finds the hosts by TCP", async () => {
    const run = await scan(plan({ targets: targets([`${H}2-${H}4`]), scan_types: ["icmp", "tcp"], tcp_ports: [ssh.port] }), {
      pingCommand: "/nonexistent/ping",
    });
    expect(run.outcome).toEqual({ addresses_scanned: 3, hosts_found: 3, cancelled: false });
    expect(run.hosts.get(`${H}2`)).toMatchObject({ open_ports: [{ port: ssh.port }], sources: ["tcp"] });
    expect(run.logs.filter((l) => l.startsWith("WARNING"))).toEqual([
      "WARNING icmp ICMP sweep unavailable: the system ping command (/nonexistent/ping) is not installed; hosts are found by the other methods only",
    ]);
  });

  it("stops at the first failure of onHost (a results write) and rejects with it", async () => {
    let calls = 0;
    const scanning = runScan(
      plan({ targets: targets([`${H}100-${H}160`]), scan_types: ["tcp"], tcp_ports: [ssh.port], max_concurrent_hosts: 4 }),
      {
        signal: new AbortController().signal,
        onHost: async () => {
          calls++;
          throw new Error("database unavailable");
        },
        onProgress: () => {},
        onLog: () => {},
      },
    );
    await expect(scanning).rejects.toThrow("database unavailable");
    expect(calls).toBeLessThanOrEqual(4);
  });

  it("bounds each host by host_timeout_ms", async () => {
    const muted = await mutedUdp(`${H}54`);
    try {
      const started = performance.now();
      const run = await scan(
        plan({ targets: targets([`${H}6`]), scan_types: ["tcp", "dns", "banner"], tcp_ports: [silent.port], host_timeout_ms: 400 }),
        {
          dnsServers: [`${H}54:${muted.port}`],
          bannerWindowMs: 5000,
        },
      );
      expect(performance.now() - started).toBeLessThan(1500);
      expect(run.hosts.get(`${H}6`)).toMatchObject({ hostname: null, open_ports: [{ port: silent.port, banner: null }] });
    } finally {
      await muted.close();
    }
  });

  it.skipIf(!havePython)("cancels a /22 sweep of black-holed addresses within a second, leaving no socket or ping behind", async () => {
    const range = targets(["127.0.8.0/22"]);
    const hole = await blackHole([...range.addresses()], 4444);
    const muted = await mutedUdp("127.0.8.1");
    try {
      const before = await tcpSocketsAfterClose(0);
      const controller = new AbortController();
      const budget = new SocketBudget(512);
      let abortedAt = 0;
      setTimeout(() => {
        abortedAt = performance.now();
        controller.abort();
      }, 500);
      const run = await scan(
        plan({
          targets: range,
          scan_types: ["icmp", "tcp", "dns"],
          tcp_ports: [4444, 4445],
          host_timeout_ms: 30_000,
          max_sockets: 512,
          max_concurrent_hosts: 256,
        }),
        { budget, connectTimeoutMs: 20_000, dnsServers: [`127.0.8.1:${muted.port}`] },
        controller.signal,
      );
      const took = performance.now() - abortedAt;
      expect(took).toBeLessThan(1000);
      expect(run.outcome.cancelled).toBe(true);
      // Every address was still waiting for its black-holed ports: none was scanned to the end.
      expect(run.outcome).toEqual({ addresses_scanned: 0, hosts_found: 0, cancelled: true });
      expect(budget.peak).toBeGreaterThan(100); // the sweep was in full flight when it was cancelled
      expect(budget.inUse).toBe(0);
      expect(await tcpSocketsAfterClose(before)).toBe(before);
      await sleep(50);
      expect(childCommands().filter((c) => c !== "python3")).toEqual([]); // no ping shell left (python3 is the black hole)
    } finally {
      hole.close();
      await muted.close();
    }
  });
});
