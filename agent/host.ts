// Who this machine is, for the hello: host name, a hash of /etc/machine-id (the id itself stays here),
// OS and version (/etc/os-release), architecture in Go's names, the MACs and networks of its interfaces,
// and what the agent can do here (readiness).
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { arch, hostname, networkInterfaces, platform } from "node:os";
import type { NetworkPayload, ReadinessPayload } from "../shared/agents/payloads.ts";
import { readText } from "./telemetry/proc.ts";
import { discoveryReadiness } from "./discovery/readiness.ts";
import { PROBE_READINESS } from "./probes/readiness.ts";

const GO_ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64", arm: "arm", ia32: "386" };

export interface HostFacts {
  hostname: string;
  machine_id_hash: string | null;
  os: string;
  os_version: string | null;
  arch: string;
  primary_macs: string[];
  networks: NetworkPayload[];
}

function osVersion(): string | null {
  const text = readText("/etc/os-release");
  const m = text && /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(text);
  return m ? m[1]!.slice(0, 128) : null;
}

function machineIdHash(): string | null {
  const id = (readText("/etc/machine-id") ?? readText("/var/lib/dbus/machine-id"))?.trim();
  return id ? bytesToHex(sha256(utf8ToBytes(id))) : null;
}

/** Each interface with its addresses as CIDRs; MACs of the interfaces that are not loopback. */
export function interfacesOfHost(): { networks: NetworkPayload[]; macs: string[] } {
  const networks: NetworkPayload[] = [];
  const macs = new Set<string>();
  for (const [name, addrs] of Object.entries(networkInterfaces())) {
    if (!addrs?.length) continue;
    const loopback = addrs.some((a) => a.internal);
    for (const a of addrs) if (!a.internal && a.mac && a.mac !== "00:00:00:00:00:00") macs.add(a.mac);
    networks.push({
      name,
      flags: loopback ? ["up", "loopback"] : ["up"],
      addrs: addrs.map((a) => a.cidr).filter((c): c is string => c !== null),
    });
  }
  return { networks, macs: [...macs] };
}

/** This machine's platform in the layout's names (linux, amd64), as the hello reports it and builds are named. */
export function hostPlatform(): { os: string; arch: string } {
  return { os: platform(), arch: GO_ARCH[arch()] ?? arch() };
}

export function hostFacts(name?: string): HostFacts {
  const { networks, macs } = interfacesOfHost();
  return {
    hostname: (name ?? hostname()).slice(0, 253),
    machine_id_hash: machineIdHash(),
    ...hostPlatform(),
    os_version: osVersion(),
    primary_macs: macs,
    networks,
  };
}

/** What the agent can run: host telemetry where /proc is readable, and its probe collectors. */
export function readinessOfHost(): ReadinessPayload[] {
  const proc = readText("/proc/stat") !== undefined;
  return [
    {
      collector: "host_telemetry",
      state: proc ? "ready" : "unavailable",
      reason: proc ? null : "/proc is not readable",
      remediation: proc ? null : "run the agent on Linux with /proc mounted",
      missing: proc ? [] : ["/proc/stat"],
    },
    ...PROBE_READINESS,
    ...discoveryReadiness(),
  ];
}
