// GET /intel/blast-radius/{asset_type}/{asset_id}: a breadth-first traversal in one recursive query.
// Each round of the recursion is one level of the BFS; UNION (not UNION ALL) drops assets already
// reached, so cycles (mutual connections, shared networks) end the walk instead of looping.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { type AssetType, type BlastItem, type BlastRadius, blastRadius } from "../../domain/blast-radius.ts";
import { ApiError } from "../../errors.ts";

// The six edge kinds of spec 4.1, each read in the direction of impact.
const STEP = sql`
  select 'hardware'::text as dt, c.target_hardware_id as did from hardware_connections c
    where r.t = 'hardware' and c.source_hardware_id = r.id
  union all select 'hardware', m2.hardware_id from network_hardware_members m1
    join network_hardware_members m2 on m2.network_id = m1.network_id
    where r.t = 'hardware' and m1.hardware_id = r.id and m2.hardware_id <> r.id
  union all select 'compute_unit', cu.id from compute_units cu where r.t = 'hardware' and cu.hardware_id = r.id
  union all select 'service', s.id from services s where r.t = 'hardware' and s.hardware_id = r.id
  union all select 'service', s.id from services s where r.t = 'compute_unit' and s.compute_id = r.id
  union all select 'service', d.service_id from service_dependencies d where r.t = 'service' and d.depends_on_id = r.id
  union all select 'storage', st.id from storage st where r.t = 'hardware' and st.hardware_id = r.id`;


const TABLE: Record<AssetType, string> = { hardware: "hardware", compute_unit: "compute_units", service: "services", storage: "storage" };
const LABEL: Record<AssetType, string> = { hardware: "Hardware node", compute_unit: "Compute unit", service: "Service", storage: "Storage item" };

export async function computeBlastRadius(db: Db, type: AssetType, id: number): Promise<BlastRadius> {
  const rows = await queryRows<{ t: AssetType; id: number; name: string; status: string | null }>(
    db,
    sql`with recursive reach(t, id) as (
          select ${type}::text, ${id}::int
          union
          select e.dt, e.did from reach r cross join lateral (${STEP}) e
        )
        -- One index lookup per reached asset (a join would let the planner hash whole tables).
        select r.t, r.id, x.name, x.status from reach r cross join lateral (
          select name, coalesce(status_override, status) as status from hardware where r.t = 'hardware' and id = r.id
          union all select name, status from compute_units where r.t = 'compute_unit' and id = r.id
          union all select name, status from services where r.t = 'service' and id = r.id
          union all select name, null from storage where r.t = 'storage' and id = r.id
        ) x`,
  );
  const items: BlastItem[] = rows.map((r) => ({ asset_type: r.t, asset_id: Number(r.id), name: r.name, status: r.status }));
  const root = items.find((i) => i.asset_type === type && i.asset_id === id);
  if (!root) {
    // The traversal names the root whenever it exists; check the table only to word the 404.
    const [exists] = await queryRows(db, sql`select 1 from ${sql.identifier(TABLE[type])} where id = ${id}`);
    if (!exists) throw ApiError.notFound(LABEL[type], id);
  }
  return blastRadius(root!, items.filter((i) => i !== root));
}
