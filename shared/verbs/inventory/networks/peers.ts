// Network peering is symmetric: one row per pair, listed from both sides; a pair exists at most once
// whichever side created it, and a network never peers with itself.
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/database.ts";
import { networkPeers, networks } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { defineRead, defineVerb } from "../../verb.ts";
import { loadNetwork } from "./network-ref.ts";

export interface PeerView {
  network_id: number;
  peer_network_id: number;
  name: string;
  cidr: string | null;
  description: string | null;
}

const eitherWay = (a: number, b: number) =>
  or(
    and(eq(networkPeers.network_id, a), eq(networkPeers.peer_network_id, b)),
    and(eq(networkPeers.network_id, b), eq(networkPeers.peer_network_id, a)),
  );

async function peersOf(db: Db, id: number, only?: number): Promise<PeerView[]> {
  return queryRows<PeerView>(
    db,
    sql`
    select ${id}::int as network_id, n.id as peer_network_id, n.name, n.cidr, p.description
    from network_peers p
    join networks n on n.id = case when p.network_id = ${id} then p.peer_network_id else p.network_id end
    where (p.network_id = ${id} or p.peer_network_id = ${id}) ${only === undefined ? sql`` : sql`and n.id = ${only}`}
    order by n.name, n.id`,
  );
}

export const listPeers = defineRead({ scope: "read:networks" }, async (ctx, { networkId }: { networkId: number }) => {
  await loadNetwork(ctx.db, networkId);
  return peersOf(ctx.db, networkId);
});

export interface PeerAdd {
  networkId: number;
  peer: { peer_network_id: number; description?: string | null | undefined };
}

export const addPeer = defineVerb(
  {
    scope: "write:networks",
    prepare: async (_ctx, { networkId, peer }: PeerAdd) => {
      if (peer.peer_network_id === networkId)
        throw ApiError.validation([{ loc: ["body", "peer_network_id"], msg: "A network cannot peer with itself.", type: "value_error" }]);
    },
  },
  async (s, { networkId, peer: input }): Promise<PeerView> => {
    const peerId = input.peer_network_id;
    // Both rows locked in id order, so two opposite requests for the same pair cannot both insert.
    const locked = await s.tx
      .select({ id: networks.id })
      .from(networks)
      .where(inArray(networks.id, [networkId, peerId]))
      .orderBy(networks.id)
      .for("update");
    if (!locked.some((r) => r.id === networkId)) throw ApiError.notFound("Network", networkId);
    if (!locked.some((r) => r.id === peerId))
      throw ApiError.validation([{ loc: ["body", "peer_network_id"], msg: `Network ${peerId} was not found.`, type: "foreign_key" }]);
    const [dup] = await s.tx.select().from(networkPeers).where(eitherWay(networkId, peerId));
    if (dup) throw ApiError.conflict(`Networks ${networkId} and ${peerId} are already peered.`);
    const [row] = await s.tx
      .insert(networkPeers)
      .values({ network_id: networkId, peer_network_id: peerId, description: input.description ?? null })
      .returning();
    s.audit({ action: "network_peer.create", category: "inventory", entity_type: "network", entity_id: networkId, diff: { after: row } });
    s.emit("topology", { entity: "network_peer", action: "create", network_id: networkId, peer_network_id: peerId });
    return (await peersOf(s.tx, networkId, peerId))[0]!;
  },
);

export const removePeer = defineVerb(
  { scope: "write:networks" },
  async (s, { networkId, peerId }: { networkId: number; peerId: number }) => {
    await loadNetwork(s.tx, networkId);
    const [row] = await s.tx.delete(networkPeers).where(eitherWay(networkId, peerId)).returning();
    if (!row) throw new ApiError("RESOURCE_NOT_FOUND", `Network ${networkId} is not peered with network ${peerId}.`);
    s.audit({ action: "network_peer.delete", category: "inventory", entity_type: "network", entity_id: networkId, diff: { before: row } });
    s.emit("topology", { entity: "network_peer", action: "delete", network_id: networkId, peer_network_id: peerId });
  },
);
