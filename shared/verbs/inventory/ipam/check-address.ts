// Who uses an address: IPAM records, hardware, compute units, services and their ports, network
// memberships and gateways, plus the networks whose cidr holds it. Read-only.
import { isNotNull } from "drizzle-orm";
import { contains, hostCidr, parseAddress, parseNetwork } from "../../../domain/cidr-math.ts";
import { networks } from "../../../db/schema/index.ts";
import { defineRead } from "../../verb.ts";
import { addressUses } from "./address-uses.ts";

export const checkAddress = defineRead({ scope: "read:networks" }, async (ctx, { address }: { address: string }) => {
  const parsed = parseAddress(address);
  if (!parsed.ok) throw new Error(parsed.message); // the body schema already refused it
  const ip = parsed.value;
  const [uses, nets] = await Promise.all([
    addressUses(ctx.db, hostCidr(ip)),
    ctx.db
      .select({ id: networks.id, name: networks.name, cidr: networks.cidr })
      .from(networks)
      .where(isNotNull(networks.cidr))
      .orderBy(networks.id),
  ]);
  const used_by = uses.map(({ ip: _ip, ...use }) => use);
  return {
    address: parsed.text,
    in_use: used_by.some((u) => !(u.type === "ipam" && u.status === "free")),
    used_by,
    networks: nets.filter((n) => {
      const c = parseNetwork(n.cidr!);
      return c.ok && contains(c.value, ip);
    }) as { id: number; name: string; cidr: string }[],
  };
});
