// The free addresses of a prefix, lowest first: the next-free-address rules of /ipam/next-free
// (cidr-math's freeHosts over every address the inventory uses), with a pool's network and broadcast
// addresses usable too. Addresses carry no VRF here, so a use anywhere counts in every VRF. A
// suggestion, not a reservation: POST /ipam records one.
import { formatAddress, freeHosts, formatCidr } from "../../../domain/cidr-math.ts";
import { defineRead } from "../../verb.ts";
import { addressUses } from "../ipam/address-uses.ts";
import { loadPrefix } from "./load.ts";
import { cidrOf } from "./tree.ts";

export const availableIps = defineRead(
  { scope: "read:networks" },
  async (ctx, { prefixId, limit }: { prefixId: number; limit: number }) => {
    const row = await loadPrefix(ctx.db, prefixId);
    const cidr = cidrOf(row.prefix);
    const uses = await addressUses(ctx.db, cidr);
    const free = freeHosts(
      cidr,
      uses.filter((u) => u.status !== "free").map((u) => u.ip.value),
      limit,
      { pool: row.is_pool },
    );
    return { prefix_id: row.id, prefix: formatCidr(cidr), items: free.map((a) => formatAddress(cidr.version, a)) };
  },
);
