// Network memberships of compute units (/members) and hardware nodes (/hardware-members): one link
// row per pair with an optional address, which must lie in the network's cidr. Every change needs
// write:networks, is audited and goes out on the `topology` channel.
import { and, asc, eq, type InferInsertModel } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../../db/database.ts";
import { computeUnits, hardware, networkHardwareMembers, networkMembers } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { requireRow } from "../../resources/row-checks.ts";
import { defineRead, defineVerb } from "../../verb.ts";
import { loadNetwork, requireInside } from "./network-ref.ts";

interface MemberKind<T extends PgTable> {
  /** The link table and its columns. */
  table: T;
  networkId: PgColumn;
  refId: PgColumn;
  ip: PgColumn;
  /** The member's own table, for existence and the listed fields. */
  ref: { table: PgTable; id: PgColumn; label: string; fields: Record<string, PgColumn> };
  /** The body's field naming the member: compute_id | hardware_id. */
  field: "compute_id" | "hardware_id";
  entity: string;
  /** The link row for a member with an address. */
  row(networkId: number, refId: number, ip: string | null): InferInsertModel<T>;
}

export interface MemberAdd {
  networkId: number;
  member: { ip_address?: string | null | undefined } & Partial<Record<"compute_id" | "hardware_id", number>>;
}

/** The list, add and remove verbs of one kind of membership. */
function memberVerbs<T extends PgTable>(kind: MemberKind<T>) {
  const memberQuery = (db: Db) =>
    db
      .select({ network_id: kind.networkId, [kind.field]: kind.refId, ...kind.ref.fields, ip_address: kind.ip })
      .from(kind.table as PgTable)
      .innerJoin(kind.ref.table, eq(kind.ref.id, kind.refId));

  return {
    list: defineRead({ scope: "read:networks" }, async (ctx, { networkId }: { networkId: number }) => {
      await loadNetwork(ctx.db, networkId);
      return memberQuery(ctx.db).where(eq(kind.networkId, networkId)).orderBy(asc(kind.ref.fields.name!), asc(kind.refId));
    }),

    add: defineVerb({ scope: "write:networks" }, async (s, { networkId, member: input }: MemberAdd) => {
      const refId = input[kind.field]!;
      const network = await loadNetwork(s.tx, networkId, { lock: true });
      await requireRow(s.tx, kind.ref.table, kind.ref.id, refId, kind.ref.label, kind.field);
      requireInside(network, input.ip_address, "ip_address");
      const [dup] = await s.tx
        .select({ id: kind.refId })
        .from(kind.table as PgTable)
        .where(and(eq(kind.networkId, networkId), eq(kind.refId, refId)));
      if (dup) throw ApiError.conflict(`${kind.ref.label} ${refId} is already a member of network ${networkId}.`);
      const [row] = await s.tx
        .insert(kind.table)
        .values(kind.row(networkId, refId, input.ip_address ?? null))
        .returning();
      s.audit({
        action: `${kind.entity}.create`,
        category: "inventory",
        entity_type: "network",
        entity_id: networkId,
        diff: { after: row },
      });
      s.emit("topology", { entity: kind.entity, action: "create", network_id: networkId, [kind.field]: refId });
      const [member] = await memberQuery(s.tx).where(and(eq(kind.networkId, networkId), eq(kind.refId, refId)));
      return member!;
    }),

    remove: defineVerb({ scope: "write:networks" }, async (s, { networkId, refId }: { networkId: number; refId: number }) => {
      await loadNetwork(s.tx, networkId);
      const [row] = await s.tx
        .delete(kind.table)
        .where(and(eq(kind.networkId, networkId), eq(kind.refId, refId)))
        .returning();
      if (!row) throw new ApiError("RESOURCE_NOT_FOUND", `${kind.ref.label} ${refId} is not a member of network ${networkId}.`);
      s.audit({
        action: `${kind.entity}.delete`,
        category: "inventory",
        entity_type: "network",
        entity_id: networkId,
        diff: { before: row },
      });
      s.emit("topology", { entity: kind.entity, action: "delete", network_id: networkId, [kind.field]: refId });
    }),
  };
}

export const computeMembers = memberVerbs({
  table: networkMembers,
  networkId: networkMembers.network_id,
  refId: networkMembers.compute_id,
  ip: networkMembers.ip_address,
  ref: {
    table: computeUnits,
    id: computeUnits.id,
    label: "Compute unit",
    fields: { name: computeUnits.name, kind: computeUnits.kind, status: computeUnits.status },
  },
  field: "compute_id",
  entity: "network_member",
  row: (network_id, compute_id, ip_address) => ({ network_id, compute_id, ip_address }),
});

export const hardwareMembers = memberVerbs({
  table: networkHardwareMembers,
  networkId: networkHardwareMembers.network_id,
  refId: networkHardwareMembers.hardware_id,
  ip: networkHardwareMembers.ip_address,
  ref: { table: hardware, id: hardware.id, label: "Hardware node", fields: { name: hardware.name, status: hardware.status } },
  field: "hardware_id",
  entity: "network_hardware_member",
  row: (network_id, hardware_id, ip_address) => ({ network_id, hardware_id, ip_address }),
});
