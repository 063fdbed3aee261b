// The inventory scope of an alert's target (site, environment, tags), which a route's site_id,
// environment_id and tag narrow on. A compute unit's site is its host's; a service's is that of its
// hardware or of its compute unit's host. Other targets (external nodes, plain addresses) have no scope:
// only unscoped routes match them.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";

export interface TargetScope {
  site_id: number | null;
  environment_id: number | null;
  tags: string[];
}

const NONE: TargetScope = { site_id: null, environment_id: null, tags: [] };

export async function targetScope(db: Db, type: string | null, id: number | null): Promise<TargetScope> {
  if (type == null || id == null) return NONE;
  let query;
  if (type === "hardware") query = sql`select site_id, environment_id, tags from hardware where id = ${id}`;
  else if (type === "compute_unit")
    query = sql`select h.site_id, c.environment_id, c.tags from compute_units c left join hardware h on h.id = c.hardware_id where c.id = ${id}`;
  else if (type === "service")
    query = sql`select coalesce(h.site_id, ch.site_id) as site_id, s.environment_id, s.tags from services s
      left join hardware h on h.id = s.hardware_id left join compute_units c on c.id = s.compute_id left join hardware ch on ch.id = c.hardware_id
      where s.id = ${id}`;
  else return NONE;
  const [row] = await queryRows<TargetScope>(db, query);
  return row ? { site_id: row.site_id, environment_id: row.environment_id, tags: row.tags ?? [] } : NONE;
}
