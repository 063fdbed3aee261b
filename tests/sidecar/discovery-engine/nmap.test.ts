// The nmap scan type with the real nmap against loopback listeners: findings mapped from its XML, the
// process killed on cancel, the built-in sweep standing in when nmap is missing, bad arguments refused.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HostFinding } from "../../../shared/domain/discovery/finding.ts";
import { parseTargets, type TargetSet } from "../../../shared/domain/discovery/targets.ts";
import type { EngineOptions, ScanPlan } from "../../../sidecar/discovery/engine/plan.ts";
import { runScan, type ScanOutcome } from "../../../sidecar/discovery/engine/run-scan.ts";
import { answeringPeer, childCommands, greetingPeer, type Peer, sleep } from "./support.ts";

const haveNmap = (() => {
  try {
    execFileSync("nmap", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

function targets(list: string[]): TargetSet {
  const r = parseTargets({ targets: list });
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

async function scan(p: Partial<ScanPlan> & Pick<ScanPlan, "targets">, options: EngineOptions = {}, signal = new AbortController().signal) {
  const hosts: HostFinding[] = [];
  const logs: string[] = [];
  const phases = new Set<string>();
  const outcome: ScanOutcome = await runScan(
    {
      scan_types: ["nmap"],
      tcp_ports: [],
      host_timeout_ms: 20_000,
      max_sockets: 64,
      max_concurrent_hosts: 16,
      nmap_arguments: null,
      snmp: null,
      ...p,
    },
    {
      signal,
      onHost: (f) => void hosts.push(f),
      onProgress: (x) => void phases.add(x.phase),
      onLog: (level, phase, message) => void logs.push(`${level} ${phase} ${message}`),
    },
    options,
  );
  return { outcome, hosts: hosts.sort((a, b) => a.ip_address.localeCompare(b.ip_address)), logs, phases };
}

const H = "127.0.13.";
let ssh: Peer;
let web: Peer;

beforeAll(async () => {
  ssh = await greetingPeer(`${H}2`, "SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n");
  const page = "<html><title>Lab</title></html>";
  web = await answeringPeer(
    `${H}2`,
    `HTTP/1.1 200 OK\r\nServer: nginx/1.24.0\r\nContent-Type: text/html\r\nContent-Length: ${page.length}\r\nConnection: close\r\n\r\n${page}`,
  );
});
afterAll(async () => {
  await Promise.all([ssh?.close(), web?.close()]);
});

describe.skipIf(!haveNmap)("nmap scan type", () => {
  it("runs nmap over the addresses and maps its service detection to findings", async () => {
    const run = await scan({ targets: targets([`${H}2-3`]), tcp_ports: [ssh.port, web.port], nmap_arguments: "-sV --version-light" });
    expect(run.outcome).toEqual({ addresses_scanned: 2, hosts_found: 2, cancelled: false });
    const [two, three] = run.hosts;
    expect(two).toMatchObject({ ip_address: `${H}2`, sources: ["nmap"] });
    expect(two!.open_ports.map((p) => p.port)).toEqual([ssh.port, web.port].sort((a, b) => a - b));
    const byPort = new Map(two!.open_ports.map((p) => [p.port, p]));
    expect(byPort.get(ssh.port)).toEqual({
      port: ssh.port,
      protocol: "tcp",
      service: "ssh",
      banner: "OpenSSH 9.6p1 Ubuntu 3ubuntu13 (Ubuntu Linux; protocol 2.0)",
    });
    expect(byPort.get(web.port)).toEqual({ port: web.port, protocol: "tcp", service: "http", banner: "nginx 1.24.0" });
    // Loopback answers for every address: up, every port refused.
    expect(three).toMatchObject({ ip_address: `${H}3`, open_ports: [], sources: ["nmap"] });
    expect(
      run.logs.some((l) =>
        l.startsWith("INFO nmap nmap -sT -sV --version-light -T4 --host-timeout 20000ms --max-parallelism 64 over 2 addresses"),
      ),
    ).toBe(true);
  });

  it("enriches nmap's hosts with the chosen built-in methods (banner, http title)", async () => {
    // Without -sV nmap cannot name a service on an unusual port; the banner grab tells it is HTTP.
    const run = await scan({ targets: targets([`${H}2`]), scan_types: ["nmap", "banner", "http"], tcp_ports: [web.port] });
    expect(run.hosts[0]!.open_ports).toEqual([
      { port: web.port, protocol: "tcp", service: "http", banner: "HTTP/1.1 200 OK", http_title: "Lab", server: "nginx/1.24.0" },
    ]);
    expect(run.hosts[0]!.sources).toEqual(["nmap", "banner", "http"]);
  });

  it("kills nmap when the scan is cancelled and resolves at once", async () => {
    const controller = new AbortController();
    const pending = scan({ targets: targets([`${H}0/24`]), tcp_ports: [ssh.port], nmap_arguments: "-sV -T2" }, {}, controller.signal);
    await sleep(500);
    expect(childCommands()).toContain("nmap");
    const abortedAt = performance.now();
    controller.abort();
    const run = await pending;
    expect(performance.now() - abortedAt).toBeLessThan(1000);
    expect(run.outcome.cancelled).toBe(true);
    await sleep(50);
    expect(childCommands()).not.toContain("nmap");
  });
});

describe("nmap missing or misused", () => {
  it("falls back to the built-in sweep when nmap is not installed, and says so", async () => {
    const run = await scan({ targets: targets([`${H}2`]), tcp_ports: [ssh.port] }, { nmapCommand: "/nonexistent/nmap" });
    expect(run.logs).toContain("WARNING nmap nmap is not installed (/nonexistent/nmap not found); the built-in sweep runs instead");
    expect(run.hosts).toHaveLength(1);
    expect(run.hosts[0]).toMatchObject({ ip_address: `${H}2`, open_ports: [{ port: ssh.port }], sources: ["icmp", "tcp"] });
  });

  it("refuses arguments outside the whitelist before starting anything", async () => {
    await expect(scan({ targets: targets([`${H}2`]), nmap_arguments: "--script vuln" })).rejects.toThrow(
      "nmap_arguments: nmap argument '--script' is not allowed",
    );
    expect(childCommands()).not.toContain("nmap");
  });
});
