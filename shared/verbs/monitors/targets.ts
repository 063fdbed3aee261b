// The inventory rows a monitor may watch (target_type hardware | compute_unit | external_node | service,
// and `ip`: an IPAM address row, so a plain address can be watched from the IPAM view) and what a
// target-scoped create probes by default (spec/catalogue.tsv, group monitors). The reference resolved no row for
// `ip` (404); the issue asks for plain addresses, and the IPAM row is the inventory's name for one.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { computeUnits, externalNodes, hardware, ipAddresses, services } from "../../db/schema/index.ts";
import { sourceOf } from "../../domain/monitors/check-types.ts";
import type { CheckType } from "../../domain/monitors/config.ts";
import type { TargetType } from "../../schemas/monitors.ts";

export interface TargetInfo {
  label: string;
  ip: string | null;
  url: string | null;
  ports: number[];
}

const bareIp = (ip: string | null) => (ip ? ip.replace(/\/\d+$/, "") || null : null);

/** The target row's label and addresses, or undefined when there is no such row. */
export async function findTarget(db: Db, type: TargetType, id: number): Promise<TargetInfo | undefined> {
  switch (type) {
    case "hardware": {
      const [r] = await db.select({ name: hardware.name, ip: hardware.ip_address }).from(hardware).where(eq(hardware.id, id));
      return r && { label: r.name, ip: bareIp(r.ip), url: null, ports: [] };
    }
    case "compute_unit": {
      const [r] = await db
        .select({ name: computeUnits.name, ip: computeUnits.ip_address })
        .from(computeUnits)
        .where(eq(computeUnits.id, id));
      return r && { label: r.name, ip: bareIp(r.ip), url: null, ports: [] };
    }
    case "external_node": {
      const [r] = await db
        .select({ name: externalNodes.name, ip: externalNodes.ip_address, url: externalNodes.url })
        .from(externalNodes)
        .where(eq(externalNodes.id, id));
      return r && { label: r.name, ip: bareIp(r.ip), url: null, ports: [] };
    }
    case "service": {
      const [r] = await db
        .select({ name: services.name, ip: services.ip_address, url: services.url, ports: services.ports })
        .from(services)
        .where(eq(services.id, id));
      return (
        r && { label: r.name, ip: bareIp(r.ip), url: r.url, ports: (r.ports ?? []).map((p) => p.port).filter((p) => Number.isInteger(p)) }
      );
    }
    case "ip": {
      const [r] = await db
        .select({ address: ipAddresses.address, hostname: ipAddresses.hostname })
        .from(ipAddresses)
        .where(eq(ipAddresses.id, id));
      return r && { label: r.hostname ?? bareIp(r.address)!, ip: bareIp(r.address), url: null, ports: [] };
    }
    default:
      return undefined;
  }
}

export interface DefaultMonitor {
  check_type: CheckType;
  host: string;
  config: Record<string, unknown>;
}

/**
 * What to probe for a target: hardware -> icmp {packet_count: 5}; compute unit and external node -> icmp;
 * service -> http {url} when it has a URL, else tcp {port} when it has an address and a port, else icmp.
 * A requested check type overrides the choice (its config then starts from what the target offers).
 * Undefined when there is no address to probe.
 */
export function defaultMonitor(type: TargetType, t: TargetInfo, requested?: CheckType): DefaultMonitor | undefined {
  const urlHost = t.url ? hostOf(t.url) : null;
  const host = t.ip ?? urlHost;
  const choice: CheckType = requested ?? (type === "service" ? (t.url ? "http" : t.ip && t.ports.length > 0 ? "tcp" : "icmp") : "icmp");
  switch (choice) {
    case "http":
      if (!t.url && !host) return undefined;
      return { check_type: "http", host: urlHost ?? host!, config: t.url ? { url: t.url } : {} };
    case "tcp":
      if (!host) return undefined;
      return { check_type: "tcp", host, config: t.ports.length > 0 ? { port: t.ports[0] } : {} };
    case "dns":
      if (!host) return undefined;
      return { check_type: "dns", host, config: {} };
    case "icmp":
      if (!host) return undefined;
      return { check_type: "icmp", host, config: type === "hardware" ? { packet_count: 5 } : {} };
    default:
      // A heartbeat about the target (its backup job, its cron) has no address to probe; any other probe
      // type checks the target's address with the config the caller gives (validated as on POST /monitors).
      if (sourceOf(choice) === "push") return { check_type: choice, host: "", config: {} };
      if (sourceOf(choice) !== "probe" || !host) return undefined;
      return { check_type: choice, host, config: {} };
  }
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "") || null;
  } catch {
    return null;
  }
}
