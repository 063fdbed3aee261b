// Issue 5: blast radius from a hardware node over the issue-4 inventory, beside the bare recursive query.
// In the seed every service depends on the two before it, so a node's services drag a long chain along:
// the figure is for the impact size in the note.
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { api, type BenchContext, type BenchRow, measure } from "./harness.ts";

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // A node near the end of the id range impacts thousands; node 1 impacts almost everything.
  for (const id of [ctx.counts.hardware - 5, 1]) {
    const r = (await api(ctx, "GET", `/api/v1/intel/blast-radius/hardware/${id}`)) as { total_impact_count: number };
    const m = await measure(20, () => api(ctx, "GET", `/api/v1/intel/blast-radius/hardware/${id}`), 2);
    const bare = await measure(20, () => ctx.sql.unsafe(bareQuery(id)), 2);
    rows.push({ name: `GET /intel/blast-radius/hardware/${id}`, p50_ms: m.p50, p99_ms: m.p99, baseline_sql_ms: bare.p50, note: `${r.total_impact_count} impacted assets` });
  }
  return rows;
}

/** The traversal alone (no names), as text for postgres.js. */
function bareQuery(id: number): string {
  return new PgDialect().sqlToQuery(sql`with recursive reach(t, id) as (select 'hardware'::text, ${sql.raw(String(id))}::int union
    select e.dt, e.did from reach r cross join lateral (
      select 'hardware'::text as dt, c.target_hardware_id as did from hardware_connections c where r.t = 'hardware' and c.source_hardware_id = r.id
      union all select 'hardware', m2.hardware_id from network_hardware_members m1 join network_hardware_members m2 on m2.network_id = m1.network_id where r.t = 'hardware' and m1.hardware_id = r.id and m2.hardware_id <> r.id
      union all select 'compute_unit', cu.id from compute_units cu where r.t = 'hardware' and cu.hardware_id = r.id
      union all select 'service', s.id from services s where r.t = 'hardware' and s.hardware_id = r.id
      union all select 'service', s.id from services s where r.t = 'compute_unit' and s.compute_id = r.id
      union all select 'service', d.service_id from service_dependencies d where r.t = 'service' and d.depends_on_id = r.id
      union all select 'storage', st.id from storage st where r.t = 'hardware' and st.hardware_id = r.id) e)
    select count(*) from reach`).sql;
}
