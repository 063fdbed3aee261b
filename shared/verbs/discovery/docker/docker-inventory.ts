// What a Docker snapshot means for the inventory, computed without the database: a compute unit per
// container, a service per container that publishes ports, a network per Docker network with an
// address range. Each carries the external id the sync keys it by in external_refs.
import { parseNetwork } from "../../../domain/cidr-math.ts";
import type { DockerEndpoint, DockerSnapshot } from "./docker-api.ts";

export interface DockerNetworkRow {
  external_id: string;
  values: { name: string; cidr: string; gateway: string | null };
  attributes: Record<string, unknown>;
}

export interface DockerContainerRow {
  external_id: string;
  values: {
    name: string;
    kind: "container";
    status: string;
    ip_address: string | null;
    memory_mb: number | null;
    cpu_cores: number | null;
  };
  attributes: Record<string, unknown>;
  /** Docker network id -> the container's address on it. */
  endpoints: { network_id: string; ip_address: string | null }[];
  /** The service of its published ports, when it publishes any. */
  service: {
    external_id: string;
    values: { name: string; status: string; ports: { ip: string | null; port: number; protocol: string; label: string }[] };
  } | null;
}

/** The external id of a container's published-ports service (the container's own id names its compute unit). */
export const serviceExternalId = (containerId: string) => `${containerId}#ports`;

const WILDCARD = new Set(["", "0.0.0.0", "::"]);

function statusOf(state: string): string {
  if (state === "running" || state === "paused" || state === "restarting") return state === "restarting" ? "running" : state;
  return "stopped";
}

export function dockerInventory(
  snapshot: DockerSnapshot,
  networkTypes: readonly string[] | null,
): { networks: DockerNetworkRow[]; containers: DockerContainerRow[] } {
  const networks: DockerNetworkRow[] = [];
  for (const n of snapshot.networks) {
    if (networkTypes && networkTypes.length > 0 && !networkTypes.includes(n.Driver)) continue;
    // host, none and overlay networks without IPAM config have no range to record.
    const config = (n.IPAM?.Config ?? []).find((c) => c.Subnet && parseNetwork(c.Subnet).ok);
    if (!config) continue;
    const cidr = parseNetwork(config.Subnet!);
    networks.push({
      external_id: n.Id,
      values: { name: n.Name, cidr: cidr.ok ? cidr.text : config.Subnet!, gateway: config.Gateway || null },
      attributes: { docker_driver: n.Driver, scope: n.Scope ?? null, internal: n.Internal ?? false, labels: n.Labels ?? {} },
    });
  }

  const containers: DockerContainerRow[] = snapshot.containers.map(({ summary, inspect }) => {
    const name = (inspect?.Name ?? summary.Names[0] ?? summary.Id.slice(0, 12)).replace(/^\//, "");
    const state = inspect?.State.Status ?? summary.State;
    const eps: Record<string, DockerEndpoint> = inspect?.NetworkSettings?.Networks ?? summary.NetworkSettings?.Networks ?? {};
    const endpoints = Object.values(eps).map((e) => ({ network_id: e.NetworkID, ip_address: e.IPAddress || null }));
    const memory = inspect?.HostConfig?.Memory ?? 0;
    const nanoCpus = inspect?.HostConfig?.NanoCpus ?? 0;
    const seen = new Set<string>();
    const ports = [];
    for (const p of summary.Ports) {
      if (p.PublicPort == null) continue;
      const ip = WILDCARD.has(p.IP ?? "") ? null : p.IP!;
      const key = `${ip}|${p.PublicPort}|${p.Type}`;
      if (seen.has(key)) continue; // 0.0.0.0 and :: publish the same port twice
      seen.add(key);
      ports.push({ ip, port: p.PublicPort, protocol: p.Type, label: `${name} ${p.PrivatePort}/${p.Type}` });
    }
    ports.sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol));
    const status = statusOf(state);
    return {
      external_id: summary.Id,
      values: {
        name,
        kind: "container",
        status,
        ip_address: endpoints.find((e) => e.ip_address)?.ip_address ?? null,
        memory_mb: memory > 0 ? Math.round(memory / 1048576) : null,
        cpu_cores: nanoCpus > 0 ? nanoCpus / 1e9 : null,
      },
      attributes: {
        image: inspect?.Config?.Image ?? summary.Image,
        state,
        docker_status: summary.Status,
        labels: summary.Labels ?? {},
        hostname: inspect?.Config?.Hostname ?? null,
      },
      endpoints,
      service:
        ports.length === 0
          ? null
          : { external_id: serviceExternalId(summary.Id), values: { name, status: status === "running" ? "running" : "stopped", ports } },
    };
  });
  return { networks, containers };
}
