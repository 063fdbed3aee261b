// The lowest free host address of a network: skips the IPv4 network/broadcast addresses, the
// gateway and every address in use anywhere in the inventory (a `free` IPAM record leaves its address
// free). A suggestion, not a reservation: record it with POST /ipam, whose unique address settles races.
import { formatAddress, lowestFree, parseNetwork } from "../../../domain/cidr-math.ts";
import { ApiError } from "../../../errors.ts";
import { defineRead } from "../../verb.ts";
import { loadNetwork } from "../networks/network-ref.ts";
import { addressUses } from "./address-uses.ts";

export const nextFreeAddress = defineRead({ scope: "read:networks" }, async (ctx, { networkId }: { networkId: number }) => {
  const network = await loadNetwork(ctx.db, networkId);
  const parsed = network.cidr ? parseNetwork(network.cidr) : undefined;
  if (!parsed?.ok)
    throw ApiError.validation([
      { loc: ["query", "network_id"], msg: `Network ${networkId} has no usable cidr (${network.cidr ?? "none"}).`, type: "value_error" },
    ]);
  const uses = await addressUses(ctx.db, parsed.value);
  const free = lowestFree(
    parsed.value,
    uses.filter((u) => u.status !== "free").map((u) => u.ip.value),
  );
  if (free === undefined) throw ApiError.conflict(`Network ${networkId} (${network.cidr}) has no free address.`);
  return { network_id: networkId, cidr: parsed.text, address: formatAddress(parsed.value.version, free) };
});
