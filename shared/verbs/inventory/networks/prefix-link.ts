// A network's prefix: the closest prefix of the global table containing (or equal to) its cidr,
// computed on every read rather than stored, so creating, changing or deleting either side keeps the
// link true (ADR 0487). A cidr written around the API that does not parse links to nothing.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/database.ts";
import { networks, prefixes } from "../../../db/schema/index.ts";
import { inetSortKey } from "./inet-sort.ts";

export async function prefixLinks(db: Db, networkIds: number[]): Promise<Map<number, number>> {
  if (networkIds.length === 0) return new Map();
  const rows = await queryRows<{ id: number; prefix_id: number | null }>(
    db,
    sql`select ${networks.id} as id, (select p.id from ${prefixes} p where p.vrf_id is null and p.prefix >>= ${inetSortKey(networks.cidr)}
                      order by masklen(p.prefix) desc, p.id limit 1) as prefix_id
        from ${networks} where ${networks.id} in (${sql.join(
          networkIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
  return new Map(rows.filter((r) => r.prefix_id !== null).map((r) => [r.id, r.prefix_id!]));
}
