// What is known about where a service lives, from what exists today: its address and ports, the
// compute unit or hardware node it runs on (with their addresses), and IPAM records of its addresses.
// Discovery itself is not built yet, so `findings` is empty and `note` says so; nothing is invented.
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { computeUnits, hardware, ipAddresses } from "../../../db/schema/index.ts";
import { defineRead } from "../../verb.ts";
import { ipSpellings } from "./check-ip.ts";
import { presentService } from "./def.ts";
import { requireService } from "./require-service.ts";

const NOTE = "Discovery has not run for this service: findings appear here once discovery runs. Host and IPAM data come from the inventory.";

async function hardwareAddress(db: Db, id: number | null) {
  if (id == null) return null;
  const [hw] = await db.select({ id: hardware.id, name: hardware.name, ip_address: hardware.ip_address, status: hardware.status }).from(hardware).where(eq(hardware.id, id));
  return hw ?? null;
}

async function hostOf(db: Db, computeId: number | null, hardwareId: number | null) {
  if (computeId != null) {
    const [cu] = await db
      .select({ id: computeUnits.id, name: computeUnits.name, ip_address: computeUnits.ip_address, status: computeUnits.status, kind: computeUnits.kind, hardware_id: computeUnits.hardware_id })
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

export const serviceDiscovery = defineRead({ scope: "read:services" }, async (ctx, { serviceId }: { serviceId: number }) => {
  const service = presentService(await requireService(ctx.db, serviceId), new Map());
  const addresses = [service.ip_address, ...service.ports.map((p) => p.ip)].filter((a): a is string => !!a);
  const spellings = [...new Set(addresses.flatMap((a) => ipSpellings(a.split("/")[0]!)))];
  const ipam =
    spellings.length === 0
      ? []
      : await ctx.db
          .select({
            id: ipAddresses.id, address: ipAddresses.address, network_id: ipAddresses.network_id, status: ipAddresses.status,
            hostname: ipAddresses.hostname, mac_address: ipAddresses.mac_address, assigned_type: ipAddresses.assigned_type, assigned_id: ipAddresses.assigned_id,
          })
          .from(ipAddresses)
          .where(inArray(sql`lower(split_part(${ipAddresses.address}, '/', 1))`, spellings))
          .orderBy(ipAddresses.address);
  return {
    service_id: service.id,
    ip_address: service.ip_address,
    ports: service.ports,
    host: await hostOf(ctx.db, service.compute_id, service.hardware_id),
    ipam,
    findings: [] as unknown[],
    note: NOTE,
  };
});
