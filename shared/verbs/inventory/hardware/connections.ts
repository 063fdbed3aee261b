// Hardware-to-hardware connections (a blast-radius edge, kept with the cables: a new one gets a cable
// between two new interfaces, deleting one deletes its cables; ADR 0493), and the read-only views of a
// node's cluster and network memberships.
import { and, eq, or } from "drizzle-orm";
import {
  cables,
  clusterMembers,
  hardware,
  hardwareClusters,
  hardwareConnections,
  networkHardwareMembers,
  networks,
} from "../../../db/schema/index.ts";
import type { Db } from "../../../db/database.ts";
import { ApiError } from "../../../errors.ts";
import { iso } from "../../resources/present.ts";
import { requireRow } from "../../resources/row-checks.ts";
import { cableForConnection, insertConnection } from "../cabling/connection-link.ts";
import { defineRead, defineVerb } from "../../verb.ts";

const requireHardware = (db: Db, id: number, field?: string) => requireRow(db, hardware, hardware.id, id, "Hardware node", field);

function presentConnection(r: typeof hardwareConnections.$inferSelect) {
  return { ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
}

export interface ConnectionAdd {
  hardwareId: number;
  connection: {
    target_hardware_id: number;
    connection_type?: string | undefined;
    bandwidth_mbps?: number | null | undefined;
    notes?: string | null | undefined;
  };
}

export const addConnection = defineVerb(
  {
    scope: "write:hardware",
    prepare: async (_ctx, { hardwareId, connection }: ConnectionAdd) => {
      if (connection.target_hardware_id === hardwareId)
        throw ApiError.validation([{ loc: ["body", "target_hardware_id"], msg: "A node cannot connect to itself.", type: "value_error" }]);
    },
  },
  async (s, { hardwareId, connection: input }) => {
    await requireHardware(s.tx, hardwareId);
    await requireHardware(s.tx, input.target_hardware_id, "target_hardware_id");
    const type = input.connection_type ?? "ethernet";
    const [dup] = await s.tx
      .select({ id: hardwareConnections.id })
      .from(hardwareConnections)
      .where(
        and(
          eq(hardwareConnections.source_hardware_id, hardwareId),
          eq(hardwareConnections.target_hardware_id, input.target_hardware_id),
          eq(hardwareConnections.connection_type, type),
        ),
      );
    if (dup)
      throw ApiError.conflict(
        `Hardware node ${hardwareId} already has a ${type} connection to ${input.target_hardware_id} (connection ${dup.id}).`,
      );
    const row = await insertConnection(s, {
      source_hardware_id: hardwareId,
      target_hardware_id: input.target_hardware_id,
      connection_type: type,
      bandwidth_mbps: input.bandwidth_mbps ?? null,
      notes: input.notes ?? null,
    });
    await cableForConnection(s, row);
    return presentConnection(row);
  },
);

export const removeConnection = defineVerb({ scope: "write:hardware" }, async (s, { connectionId }: { connectionId: number }) => {
  const held = await s.tx.delete(cables).where(eq(cables.connection_id, connectionId)).returning({ id: cables.id });
  const [row] = await s.tx.delete(hardwareConnections).where(eq(hardwareConnections.id, connectionId)).returning();
  if (!row) throw ApiError.notFound("Hardware connection", connectionId);
  for (const c of held) s.emit("inventory", { entity: "cable", action: "delete", id: c.id });
  s.audit({
    action: "hardware.connection.delete",
    category: "inventory",
    entity_type: "hardware_connection",
    entity_id: connectionId,
    diff: { before: row, cables_removed: held.map((c) => c.id) },
  });
  s.emit("topology", { entity: "hardware_connection", action: "delete", id: connectionId });
});

/** The reads of one node's links: its connections, clusters and network memberships (404 for an unknown node). */
const nodeRead = <O>(read: (db: Db, hardwareId: number) => Promise<O>) =>
  defineRead({ scope: "read:hardware" }, async (ctx, { hardwareId }: { hardwareId: number }) => {
    await requireHardware(ctx.db, hardwareId);
    return read(ctx.db, hardwareId);
  });

export const listConnections = nodeRead(async (db, hardwareId) => {
  const rows = await db
    .select()
    .from(hardwareConnections)
    .where(or(eq(hardwareConnections.source_hardware_id, hardwareId), eq(hardwareConnections.target_hardware_id, hardwareId)))
    .orderBy(hardwareConnections.id);
  return rows.map(presentConnection);
});

export const hardwareClustersOf = nodeRead((db, hardwareId) =>
  db
    .select({
      id: hardwareClusters.id,
      name: hardwareClusters.name,
      type: hardwareClusters.type,
      member_id: clusterMembers.id,
      role: clusterMembers.role,
    })
    .from(clusterMembers)
    .innerJoin(hardwareClusters, eq(hardwareClusters.id, clusterMembers.cluster_id))
    .where(eq(clusterMembers.hardware_id, hardwareId))
    .orderBy(hardwareClusters.name),
);

export const hardwareNetworkMemberships = nodeRead((db, hardwareId) =>
  db
    .select({
      network_id: networks.id,
      name: networks.name,
      cidr: networks.cidr,
      vlan_id: networks.vlan_id,
      ip_address: networkHardwareMembers.ip_address,
    })
    .from(networkHardwareMembers)
    .innerJoin(networks, eq(networks.id, networkHardwareMembers.network_id))
    .where(eq(networkHardwareMembers.hardware_id, hardwareId))
    .orderBy(networks.name),
);
