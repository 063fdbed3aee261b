// Cluster membership: a hardware node belongs to a cluster once, with an optional role. Changes need
// write:clusters, are audited against the cluster and go out on the `topology` channel.
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { clusterMembers, hardware, hardwareClusters } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { iso } from "../../resources/present.ts";
import { requireRow } from "../../resources/row-checks.ts";
import { defineRead, defineVerb, type VerbScope } from "../../verb.ts";

const requireCluster = (db: Db, id: number) => requireRow(db, hardwareClusters, hardwareClusters.id, id, "Hardware cluster");

async function membersOf(db: Db, clusterId: number, memberId?: number) {
  const rows = await db
    .select({ member: clusterMembers, hardware_name: hardware.name })
    .from(clusterMembers)
    .innerJoin(hardware, eq(hardware.id, clusterMembers.hardware_id))
    .where(and(eq(clusterMembers.cluster_id, clusterId), memberId === undefined ? undefined : eq(clusterMembers.id, memberId)))
    .orderBy(asc(hardware.name), asc(clusterMembers.id));
  return rows.map(({ member: m, hardware_name }) => ({
    id: m.id,
    cluster_id: m.cluster_id,
    hardware_id: m.hardware_id,
    hardware_name,
    role: m.role,
    created_at: iso(m.created_at)!,
    updated_at: iso(m.updated_at)!,
  }));
}

export const listClusterMembers = defineRead({ scope: "read:clusters" }, async (ctx, { clusterId }: { clusterId: number }) => {
  await requireCluster(ctx.db, clusterId);
  return membersOf(ctx.db, clusterId);
});

function record(s: VerbScope, clusterId: number, action: "create" | "update" | "delete", memberId: number, diff: unknown): void {
  s.audit({ action: `cluster_member.${action}`, category: "inventory", entity_type: "cluster", entity_id: clusterId, diff });
  s.emit("topology", { entity: "cluster_member", action, cluster_id: clusterId, id: memberId });
}

export interface MemberAdd {
  clusterId: number;
  member: { hardware_id: number; role?: string | null | undefined };
}

export const addClusterMember = defineVerb({ scope: "write:clusters" }, async (s, { clusterId, member }: MemberAdd) => {
  await requireCluster(s.tx, clusterId);
  await requireRow(s.tx, hardware, hardware.id, member.hardware_id, "Hardware node", "hardware_id");
  const [dup] = await s.tx
    .select({ id: clusterMembers.id })
    .from(clusterMembers)
    .where(and(eq(clusterMembers.cluster_id, clusterId), eq(clusterMembers.hardware_id, member.hardware_id)));
  if (dup) throw ApiError.conflict(`Hardware node ${member.hardware_id} is already in cluster ${clusterId} (member ${dup.id}).`);
  const [row] = await s.tx
    .insert(clusterMembers)
    .values({ cluster_id: clusterId, hardware_id: member.hardware_id, role: member.role ?? null })
    .returning();
  record(s, clusterId, "create", row!.id, { after: row });
  return (await membersOf(s.tx, clusterId, row!.id))[0]!;
});

async function lockMember(s: VerbScope, clusterId: number, memberId: number) {
  await requireCluster(s.tx, clusterId);
  const [row] = await s.tx
    .select()
    .from(clusterMembers)
    .where(and(eq(clusterMembers.id, memberId), eq(clusterMembers.cluster_id, clusterId)))
    .for("update");
  if (!row) throw new ApiError("RESOURCE_NOT_FOUND", `Cluster member ${memberId} was not found in cluster ${clusterId}.`);
  return row;
}

export interface MemberRef {
  clusterId: number;
  memberId: number;
}

export const updateClusterMember = defineVerb(
  { scope: "write:clusters" },
  async (s, { clusterId, memberId, changes }: MemberRef & { changes: { role?: string | null | undefined } }) => {
    const before = await lockMember(s, clusterId, memberId);
    if ("role" in changes && changes.role !== before.role) {
      await s.tx
        .update(clusterMembers)
        .set({ role: changes.role ?? null, updated_at: s.now })
        .where(eq(clusterMembers.id, memberId));
      record(s, clusterId, "update", memberId, { before: { role: before.role }, after: { role: changes.role ?? null } });
    }
    return (await membersOf(s.tx, clusterId, memberId))[0]!;
  },
);

export const removeClusterMember = defineVerb({ scope: "write:clusters" }, async (s, { clusterId, memberId }: MemberRef) => {
  const row = await lockMember(s, clusterId, memberId);
  await s.tx.delete(clusterMembers).where(eq(clusterMembers.id, memberId));
  record(s, clusterId, "delete", memberId, { before: row });
});
