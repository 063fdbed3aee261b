// What this machine can scan with, checked without touching any network but loopback: ping of
// 127.0.0.1, the resolver configuration, the neighbour table, `nmap --version`, the Docker socket.
// The discovery worker stores the answer (app_settings discovery_readiness) for GET /discovery/readiness
// and for refusing a job whose tool is missing.
import { execFile } from "node:child_process";
import { getServers } from "node:dns";
import { access, constants, stat } from "node:fs/promises";
import { PROC_NET_ARP } from "../../../net/neighbours.ts";
import { ping } from "../../../net/ping.ts";

export type ReadinessState = "ready" | "degraded" | "unavailable";

export interface ReadinessCapability {
  key: string;
  title: string;
  state: ReadinessState;
  explanation: string;
  reason_code: string | null;
  last_healed_at: null;
  last_error: string | null;
}

export interface DiscoveryReadiness {
  /** nmap, the optional helper tool, is installed. */
  helper_installed: boolean;
  capabilities: ReadinessCapability[];
}

export interface ReadinessOptions {
  pingCommand?: string;
  nmapCommand?: string;
  dockerSocketPath?: string;
  arpTablePath?: string;
}

type Verdict = Omit<ReadinessCapability, "key" | "title" | "last_healed_at">;

const ready = (explanation: string): Verdict => ({ state: "ready", explanation, reason_code: null, last_error: null });
const notReady = (
  state: "degraded" | "unavailable",
  reason_code: string,
  explanation: string,
  last_error: string | null = null,
): Verdict => ({
  state,
  explanation,
  reason_code,
  last_error,
});

async function icmp(command: string): Promise<Verdict> {
  const r = await ping("127.0.0.1", { timeoutMs: 2000, command });
  if (r.alive) return ready("ICMP echo through the system ping works");
  if (r.fault?.includes("not installed"))
    return notReady(
      "unavailable",
      "ping_not_installed",
      "The system ping command is missing (Debian: apt-get install iputils-ping); hosts are found by TCP",
      r.fault,
    );
  if (r.fault)
    return notReady(
      "unavailable",
      "ping_not_permitted",
      "ping may not open an ICMP socket; allow net.ipv4.ping_group_range or give ping cap_net_raw",
      r.fault,
    );
  return notReady("degraded", "no_loopback_reply", "ping ran but 127.0.0.1 did not answer");
}

function dns(): Verdict {
  const servers = getServers();
  return servers.length
    ? ready(`Reverse DNS through ${servers.join(", ")}`)
    : notReady("degraded", "no_resolver", "No DNS server is configured (/etc/resolv.conf); hosts get no names");
}

async function arp(path: string): Promise<Verdict> {
  try {
    await access(path, constants.R_OK);
    return ready(`MAC addresses from the kernel's neighbour table (${path}), for hosts on the same network segments`);
  } catch (e) {
    return notReady(
      "unavailable",
      "no_neighbour_table",
      `The neighbour table (${path}) is not readable on this platform; no MAC addresses`,
      (e as Error).message,
    );
  }
}

function nmapVersion(command: string): Promise<Verdict> {
  return new Promise((resolve) => {
    execFile(
      command,
      ["--version"],
      { timeout: 5000, env: { LC_ALL: "C", PATH: process.env.PATH ?? "/usr/bin:/bin" } },
      (error, stdout) => {
        const version = /Nmap version ([\w.]+)/.exec(stdout)?.[1];
        if (!error && version) return resolve(ready(`nmap ${version} is installed`));
        const code = (error as NodeJS.ErrnoException | null)?.code;
        if (code === "ENOENT")
          return resolve(
            notReady(
              "unavailable",
              "not_installed",
              "nmap is not installed (Debian: apt-get install nmap); the built-in sweep does the other types",
            ),
          );
        resolve(
          notReady("unavailable", "not_runnable", "nmap is installed but does not run", error?.message ?? "no version in its output"),
        );
      },
    );
  });
}

async function docker(path: string): Promise<Verdict> {
  try {
    const s = await stat(path);
    if (!s.isSocket()) return notReady("unavailable", "not_a_socket", `${path} is not a unix socket`);
    await access(path, constants.R_OK | constants.W_OK);
    return ready(`The Docker Engine API socket ${path} is reachable`);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EACCES")
      return notReady(
        "degraded",
        "permission_denied",
        `${path} exists but this process may not use it (add it to the docker group)`,
        (e as Error).message,
      );
    return notReady("unavailable", "socket_missing", `No Docker Engine socket at ${path}`);
  }
}

export async function probeDiscoveryReadiness(options: ReadinessOptions = {}): Promise<DiscoveryReadiness> {
  const [icmpV, arpV, nmapV, dockerV] = await Promise.all([
    icmp(options.pingCommand ?? "ping"),
    arp(options.arpTablePath ?? PROC_NET_ARP),
    nmapVersion(options.nmapCommand ?? "nmap"),
    docker(options.dockerSocketPath ?? "/var/run/docker.sock"),
  ]);
  const entries: [string, string, Verdict][] = [
    ["icmp", "ICMP echo (ping)", icmpV],
    ["tcp", "TCP connect", ready("TCP connect scans need no privilege")],
    ["dns", "Reverse DNS", dns()],
    ["arp", "ARP / neighbour table", arpV],
    ["nmap", "nmap", nmapV],
    ["snmp", "SNMP (v1/v2c)", ready("SNMP GET of sysName and sysDescr through the built-in client")],
    ["docker", "Docker Engine API", dockerV],
  ];
  return {
    helper_installed: nmapV.state === "ready",
    capabilities: entries.map(([key, title, v]) => ({
      key,
      title,
      state: v.state,
      explanation: v.explanation,
      reason_code: v.reason_code,
      last_healed_at: null,
      last_error: v.last_error,
    })),
  };
}
