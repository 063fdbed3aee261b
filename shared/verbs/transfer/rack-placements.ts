// After an import's rows are written: the placements the hardware write checks one node at a time
// (ADR 0480), checked over every rack at once, since an import writes rows without the hardware verb.
// Each problem names the row (its document key and id) and what it collides with.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";

export interface PlacementProblem {
  kind: "hardware" | "rack_reservations";
  id: number;
  reason: string;
}

/** SQL text "at unit 7" or "at units 8-9" of two columns. */
const at = (first: string, last: string) =>
  `(case when ${first} = ${last} then 'at unit ' || ${first} else 'at units ' || ${first} || '-' || ${last} end)`;

/** Up to `limit` placements that break the rules: past the rack, at another site, overlapping. */
export async function placementProblems(tx: Db, limit = 50): Promise<PlacementProblem[]> {
  return queryRows<PlacementProblem>(
    tx,
    sql.raw(`
      with placed as (
        select h.id, h.name, h.rack_id, h.site_id, h.rack_unit as first, h.rack_unit + coalesce(h.u_height, 1) - 1 as last,
               coalesce(h.rack_face, 'front') as face
        from hardware h where h.rack_id is not null and h.rack_unit is not null and coalesce(h.u_height, 1) > 0
      ), held as (
        select id, rack_id, reason, first_unit as first, first_unit + u_count - 1 as last from rack_reservations
      )
      select 'hardware' as kind, h.id, 'rack ' || r.id || ' is at site ' || r.site_id || ', the node at ' || coalesce('site ' || h.site_id, 'no site') as reason
        from hardware h join racks r on r.id = h.rack_id where h.site_id is distinct from r.site_id
      union all
      select 'hardware', p.id, ${at("p.first", "p.last")} || ', outside rack ' || r.id || ' (1-' || r.u_height || ')'
        from placed p join racks r on r.id = p.rack_id where p.first < 1 or p.last > r.u_height
      union all
      select 'hardware', p.id, ${at("p.first", "p.last")} || ', overlapping hardware ''' || q.name || ''' (id ' || q.id || ') in rack ' || p.rack_id
        from placed p join placed q on q.rack_id = p.rack_id and q.id < p.id and p.first <= q.last and q.first <= p.last
         and (p.face = 'both' or q.face = 'both' or p.face = q.face)
      union all
      select 'hardware', p.id, ${at("p.first", "p.last")} || ', overlapping reservation ' || k.id || ' (' || k.reason || ') in rack ' || p.rack_id
        from placed p join held k on k.rack_id = p.rack_id and p.first <= k.last and k.first <= p.last
      union all
      select 'rack_reservations', k.id, ${at("k.first", "k.last")} || ', outside rack ' || r.id || ' (1-' || r.u_height || ')'
        from held k join racks r on r.id = k.rack_id where k.last > r.u_height
      union all
      select 'rack_reservations', k.id, ${at("k.first", "k.last")} || ', overlapping reservation ' || j.id || ' in rack ' || k.rack_id
        from held k join held j on j.rack_id = k.rack_id and j.id < k.id and k.first <= j.last and j.first <= k.last
      order by 1, 2
      limit ${Math.trunc(limit)}`),
  );
}
