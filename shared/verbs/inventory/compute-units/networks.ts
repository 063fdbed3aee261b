// GET /compute-units/{cu_id}/networks: the networks a compute unit is a member of (network_members).
import { eq } from "drizzle-orm";
import { computeUnits, networkMembers, networks } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { defineRead } from "../../verb.ts";

export const computeUnitNetworks = defineRead({ scope: "read:compute" }, async (ctx, { computeId }: { computeId: number }) => {
  const [unit] = await ctx.db.select({ id: computeUnits.id }).from(computeUnits).where(eq(computeUnits.id, computeId));
  if (!unit) throw ApiError.notFound("Compute unit", computeId);
  return ctx.db
    .select({
      network_id: networks.id,
      name: networks.name,
      cidr: networks.cidr,
      vlan_id: networks.vlan_id,
      gateway: networks.gateway,
      ip_address: networkMembers.ip_address,
    })
    .from(networkMembers)
    .innerJoin(networks, eq(networks.id, networkMembers.network_id))
    .where(eq(networkMembers.compute_id, computeId))
    .orderBy(networks.name, networks.id);
});
