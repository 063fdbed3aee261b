// Documents, maps, pins, topologies, layouts, IPAM assignments and journal entries point at inventory
// objects by (type, id) with no foreign key behind them. When an object is deleted, these pointers go in
// the same transaction, so nothing is left naming an object that no longer exists. An object's journal
// goes with it (docs/adr/0485): notes about something that is gone have nothing to be shown beside.
import { sql } from "drizzle-orm";
import { NODE_TYPES, nodeId, type NodeType } from "../../domain/graph-ids.ts";
import type { VerbScope } from "../verb.ts";

export async function forgetReferences(s: VerbScope, entityType: string, id: number): Promise<number> {
  const journal = affected(await s.tx.execute(sql`delete from journal_entries where object_type = ${entityType} and object_id = ${id}`));
  if (!(NODE_TYPES as string[]).includes(entityType)) return journal;
  const node = nodeId(entityType as NodeType, id);
  const counts = await Promise.all([
    s.tx.execute(sql`delete from doc_entities where entity_type = ${entityType} and entity_id = ${id}`),
    s.tx.execute(sql`delete from map_entities where entity_type = ${entityType} and entity_id = ${id}`),
    s.tx.execute(sql`delete from map_pins where entity_type = ${entityType} and entity_id = ${id}`),
    s.tx.execute(sql`delete from topology_nodes where node_id = ${node}`),
    s.tx.execute(sql`update graph_layouts set positions = positions - ${node} where positions ? ${node}`),
    s.tx.execute(
      sql`update ip_addresses set assigned_type = null, assigned_id = null where assigned_type = ${entityType} and assigned_id = ${id}`,
    ),
  ]);
  return counts.reduce((n: number, r: unknown) => n + affected(r), journal);
}

/** Rows a statement touched, whichever driver answered (postgres.js: count; PGlite: affectedRows). */
function affected(result: unknown): number {
  const r = result as { count?: number; affectedRows?: number };
  return Number(r.count ?? r.affectedRows ?? 0);
}
