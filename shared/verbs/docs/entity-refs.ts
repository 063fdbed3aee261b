// The inventory objects documents and maps point at, by (entity_type, entity_id). There is no foreign
// key behind such a pair, so writes check that the object exists, and reads look names up in one query.
import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { queryRows } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";

export const ENTITY_TYPES = ["hardware", "compute_unit", "service", "storage", "network", "cluster", "external_node", "misc"] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** The table of each entity type (every one has id and name). */
const TABLES: Record<EntityType, SQL> = {
  hardware: sql.raw("hardware"),
  compute_unit: sql.raw("compute_units"),
  service: sql.raw("services"),
  storage: sql.raw("storage"),
  network: sql.raw("networks"),
  cluster: sql.raw("hardware_clusters"),
  external_node: sql.raw("external_nodes"),
  misc: sql.raw("misc_items"),
};

export const LABELS: Record<EntityType, string> = {
  hardware: "Hardware node",
  compute_unit: "Compute unit",
  service: "Service",
  storage: "Storage item",
  network: "Network",
  cluster: "Cluster",
  external_node: "External node",
  misc: "Misc item",
};

export interface EntityRef {
  entity_type: string;
  entity_id: number;
}

export const refKey = (type: string, id: number) => `${type}:${id}`;

/** `type:id` -> name for every ref that exists, in one statement whatever the mix of types. */
export async function entityNames(db: Db, refs: EntityRef[]): Promise<Map<string, string>> {
  const byType = new Map<EntityType, Set<number>>();
  for (const r of refs) {
    if (!(ENTITY_TYPES as readonly string[]).includes(r.entity_type)) continue;
    const type = r.entity_type as EntityType;
    if (!byType.has(type)) byType.set(type, new Set());
    byType.get(type)!.add(r.entity_id);
  }
  if (byType.size === 0) return new Map();
  const parts = [...byType].map(
    ([type, ids]) => sql`select ${type}::text as type, id, name from ${TABLES[type]} where id = any(${`{${[...ids].join(",")}}`}::int[])`,
  );
  const rows = await queryRows<{ type: string; id: number; name: string }>(db, sql.join(parts, sql` union all `));
  return new Map(rows.map((r) => [refKey(r.type, Number(r.id)), r.name]));
}

/**
 * The name of the object a (type, id) column pair points at, as one SQL expression (a scalar lookup by
 * primary key for the matching type only), so a list can carry names without a second query.
 */
export function entityNameSql(typeColumn: SQL | AnyColumn, idColumn: SQL | AnyColumn): SQL<string | null> {
  const branches = ENTITY_TYPES.map((t) => sql`when ${t} then (select name from ${TABLES[t]} where id = ${idColumn})`);
  return sql<string | null>`(case ${typeColumn} ${sql.join(branches, sql` `)} end)`;
}

/** 422 on `loc` unless the object exists (the pair has no foreign key to catch it). */
export async function requireEntity(db: Db, ref: EntityRef, loc: string[] = ["body", "entity_id"]): Promise<string> {
  const name = (await entityNames(db, [ref])).get(refKey(ref.entity_type, ref.entity_id));
  if (name === undefined)
    throw ApiError.validation([
      { loc, msg: `${LABELS[ref.entity_type as EntityType] ?? ref.entity_type} ${ref.entity_id} was not found.`, type: "foreign_key" },
    ]);
  return name;
}
