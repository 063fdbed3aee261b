// PATCH and DELETE /graph/edges/{edge_id}: every edge of the graph is a row (a link row, or the foreign
// key of the row it points from), so removing an edge deletes the link or clears the key, and editing
// one changes the link's own attributes.
import { and, type AnyColumn, eq, isNotNull, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import {
  clusterMembers,
  computeUnits,
  externalNodeNetworks,
  hardwareConnections,
  networkHardwareMembers,
  networkMembers,
  networkPeers,
  serviceDependencies,
  serviceExternalDependencies,
  serviceMisc,
  services,
  serviceStorage,
  storage,
} from "../../db/schema/index.ts";
import { type EdgeKind, parseEdgeId } from "../../domain/graph-ids.ts";
import { ApiError } from "../../errors.ts";
import { defineVerb } from "../verb.ts";

interface EdgeRow {
  table: PgTable;
  where: (a: number, b: number) => SQL | undefined;
  /** Clear these columns instead of deleting the row (the edge is a foreign key of a real object). */
  clear?: Record<string, null>;
  /** Attributes PATCH may change. */
  editable: string[];
}

const ROWS: Record<EdgeKind, EdgeRow> = {
  hh: { table: hardwareConnections, where: (a) => eq(hardwareConnections.id, a), editable: ["connection_type", "bandwidth_mbps", "notes"] },
  hc: { table: computeUnits, where: (a) => eq(computeUnits.id, a), clear: { hardware_id: null }, editable: [] },
  hs: { table: services, where: (a) => eq(services.id, a), clear: { hardware_id: null }, editable: [] },
  cs: { table: services, where: (a) => eq(services.id, a), clear: { compute_id: null }, editable: [] },
  ss: {
    table: serviceDependencies,
    where: (a, b) => and(eq(serviceDependencies.service_id, a), eq(serviceDependencies.depends_on_id, b)),
    editable: [],
  },
  hn: {
    table: networkHardwareMembers,
    where: (a, b) => and(eq(networkHardwareMembers.network_id, a), eq(networkHardwareMembers.hardware_id, b)),
    editable: ["ip_address"],
  },
  cn: {
    table: networkMembers,
    where: (a, b) => and(eq(networkMembers.network_id, a), eq(networkMembers.compute_id, b)),
    editable: ["ip_address"],
  },
  cl: { table: clusterMembers, where: (a) => eq(clusterMembers.id, a), editable: ["role"] },
  hst: { table: storage, where: (a) => eq(storage.id, a), clear: { hardware_id: null }, editable: [] },
  sst: {
    table: serviceStorage,
    where: (a, b) => and(eq(serviceStorage.service_id, a), eq(serviceStorage.storage_id, b)),
    editable: ["mount_path"],
  },
  sm: { table: serviceMisc, where: (a, b) => and(eq(serviceMisc.service_id, a), eq(serviceMisc.misc_id, b)), editable: [] },
  se: { table: serviceExternalDependencies, where: (a) => eq(serviceExternalDependencies.id, a), editable: ["description"] },
  en: { table: externalNodeNetworks, where: (a) => eq(externalNodeNetworks.id, a), editable: ["link_type"] },
  nn: {
    table: networkPeers,
    where: (a, b) => and(eq(networkPeers.network_id, a), eq(networkPeers.peer_network_id, b)),
    editable: ["description"],
  },
};

function resolve(edgeIdText: string) {
  const parsed = parseEdgeId(edgeIdText);
  if (!parsed) throw ApiError.notFound("Edge", edgeIdText);
  return { ...parsed, row: ROWS[parsed.kind] };
}

export const deleteEdge = defineVerb(
  { scope: "write:graph", prepare: async (_ctx, { edgeId }: { edgeId: string }) => resolve(edgeId) },
  async (s, { edgeId }, { a, b, row, kind }) => {
    const where = row.where(a, b ?? 0);
    const changed = row.clear
      ? await s.tx
          .update(row.table)
          .set(row.clear)
          .where(and(where, ...Object.keys(row.clear).map((k) => isSet(row.table, k))))
          .returning()
      : await s.tx.delete(row.table).where(where).returning();
    if (changed.length === 0) throw ApiError.notFound("Edge", edgeId);
    s.audit({
      action: "graph.edge.delete",
      category: "inventory",
      entity_type: "edge",
      entity_id: edgeId,
      diff: { kind, before: changed[0] },
    });
    s.emit("topology", { entity: "edge", action: "delete", id: edgeId });
  },
);

export interface EdgePatch {
  edgeId: string;
  changes: Record<string, string | number | null>;
}

export const patchEdge = defineVerb(
  {
    scope: "write:graph",
    prepare: async (_ctx, { edgeId, changes }: EdgePatch) => {
      const edge = resolve(edgeId);
      const bad = Object.keys(changes).filter((k) => !edge.row.editable.includes(k));
      if (bad.length > 0)
        throw ApiError.validation(
          bad.map((k) => ({
            loc: ["body", k],
            msg: edge.row.editable.length
              ? `Not editable on this edge; editable: ${edge.row.editable.join(", ")}.`
              : "This edge has no editable attributes.",
            type: "extra_forbidden",
          })),
        );
      return edge;
    },
  },
  async (s, { edgeId, changes }, { a, b, row }) => {
    const where = row.where(a, b ?? 0);
    const [before] = await s.tx.select().from(row.table).where(where);
    if (!before) throw ApiError.notFound("Edge", edgeId);
    if (Object.keys(changes).length === 0) return { id: edgeId, ...before };
    const [after] = await s.tx.update(row.table).set(changes).where(where).returning();
    s.audit({ action: "graph.edge.update", category: "inventory", entity_type: "edge", entity_id: edgeId, diff: { before, after } });
    s.emit("topology", { entity: "edge", action: "update", id: edgeId });
    return { id: edgeId, ...after };
  },
);

/** The key being cleared must be set now, or there is no such edge. */
function isSet(table: PgTable, column: string): SQL {
  return isNotNull((table as unknown as Record<string, AnyColumn>)[column]!);
}
