// What is known about where a service lives: its address and ports, the compute unit or hardware node it
// runs on (with their addresses), IPAM records of its addresses, and what discovery last saw at each of
// those addresses (the newest scan result per address, with which of the service's ports it found open).
import { desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { computeUnits, hardware, ipAddresses, scanResults } from "../../../db/schema/index.ts";
import { actorCan } from "../../actor.ts";
import { iso } from "../../resources/present.ts";
import type { VerbContext } from "../../verb-context.ts";
import { READ_DISCOVERY } from "../../discovery/scopes.ts";
import { defineRead } from "../../verb.ts";
import { ipSpellings } from "./check-ip.ts";
import { presentService } from "./def.ts";
import { requireService } from "./require-service.ts";

const NONE_YET =
  "No discovery scan has seen these addresses yet: findings appear here once a scan covers them. Host and IPAM data come from the inventory.";
const SEEN =
  "Findings are the newest discovery result per address of the service and its host. Host and IPAM data come from the inventory.";

async function hardwareAddress(db: Db, id: number | null) {
  if (id == null) return null;
  const [hw] = await db
    .select({ id: hardware.id, name: hardware.name, ip_address: hardware.ip_address, status: hardware.status })
    .from(hardware)
    .where(eq(hardware.id, id));
  return hw ?? null;
}

async function hostOf(db: Db, computeId: number | null, hardwareId: number | null) {
  if (computeId != null) {
    const [cu] = await db
      .select({
        id: computeUnits.id,
        name: computeUnits.name,
        ip_address: computeUnits.ip_address,
        status: computeUnits.status,
        kind: computeUnits.kind,
        hardware_id: computeUnits.hardware_id,
      })
      .from(computeUnits)
      .where(eq(computeUnits.id, computeId));
    if (cu) {
      const { hardware_id, ...unit } = cu;
      return { type: "compute_unit" as const, ...unit, hardware: await hardwareAddress(db, hardware_id ?? hardwareId) };
    }
  }
  const hw = await hardwareAddress(db, hardwareId);
  return hw ? { type: "hardware" as const, ...hw, kind: null, hardware: null } : null;
}

/** The newest scan result per address; `service_ports_open` are the service's ports that scan found open. */
async function latestFindings(db: Db, addresses: string[], servicePorts: number[]) {
  if (addresses.length === 0) return [];
  const rows = await db
    .selectDistinctOn([scanResults.ip_address])
    .from(scanResults)
    .where(inArray(scanResults.ip_address, addresses))
    .orderBy(scanResults.ip_address, desc(scanResults.id));
  return rows.map((r) => ({
    result_id: r.id,
    scan_job_id: r.scan_job_id,
    ip_address: r.ip_address,
    mac_address: r.mac_address,
    hostname: r.hostname,
    vendor: r.vendor,
    open_ports: r.open_ports,
    service_ports_open: servicePorts.filter((p) => r.open_ports.some((o) => o.port === p)),
    state: r.state,
    merge_status: r.merge_status,
    seen_at: iso(r.created_at)!,
  }));
}

/**
 * The host as far as the caller may read it (issue 36 item 12): a compute unit needs read:compute and a
 * hardware node read:hardware; what the caller cannot read is left out (null), never named.
 */
function visibleHost(ctx: VerbContext, host: Awaited<ReturnType<typeof hostOf>>) {
  if (!host) return null;
  const can = (scope: string) => !!ctx.actor && actorCan(ctx.actor, scope);
  const hardwareVisible = can("read:hardware");
  if (host.type === "hardware") return hardwareVisible ? host : null;
  if (!can("read:compute")) return null;
  return { ...host, hardware: hardwareVisible ? host.hardware : null };
}

export const serviceDiscovery = defineRead({ scope: "read:services" }, async (ctx, { serviceId }: { serviceId: number }) => {
  const service = presentService(await requireService(ctx.db, serviceId), new Map());
  const addresses = [service.ip_address, ...service.ports.map((p) => p.ip)].filter((a): a is string => !!a);
  const spellings = [...new Set(addresses.flatMap((a) => ipSpellings(a.split("/")[0]!)))];
  const host = visibleHost(ctx, await hostOf(ctx.db, service.compute_id, service.hardware_id));
  const seenAt = [
    ...new Set([
      ...spellings,
      ...[host?.ip_address, host?.hardware?.ip_address].filter((a): a is string => !!a).flatMap((a) => ipSpellings(a.split("/")[0]!)),
    ]),
  ];
  const ipam =
    spellings.length === 0
      ? []
      : await ctx.db
          .select({
            id: ipAddresses.id,
            address: ipAddresses.address,
            network_id: ipAddresses.network_id,
            status: ipAddresses.status,
            hostname: ipAddresses.hostname,
            mac_address: ipAddresses.mac_address,
            assigned_type: ipAddresses.assigned_type,
            assigned_id: ipAddresses.assigned_id,
          })
          .from(ipAddresses)
          .where(inArray(sql`lower(split_part(${ipAddresses.address}, '/', 1))`, spellings))
          .orderBy(ipAddresses.address);
  const canReadNetworks = !!ctx.actor && actorCan(ctx.actor, "read:networks");
  const canReadFindings = !!ctx.actor && actorCan(ctx.actor, READ_DISCOVERY);
  const findings = canReadFindings
    ? await latestFindings(
        ctx.db,
        seenAt,
        service.ports.map((p) => p.port),
      )
    : [];
  return {
    service_id: service.id,
    ip_address: service.ip_address,
    ports: service.ports,
    host,
    ipam: canReadNetworks ? ipam : [],
    findings,
    note: findings.length ? SEEN : NONE_YET,
  };
});
