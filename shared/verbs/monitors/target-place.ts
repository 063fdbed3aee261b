// Where a monitor's target sits, as SQL over the monitor's target_type and target_id: the hardware it
// is or runs on (a compute unit's host, a service's hardware or its compute unit's host), that
// hardware's site, and the tags of the target with those of that hardware (docs/adr/0464). Maintenance
// windows cover by the hardware's site and tags (run/maintenance-cover.ts); the monitor list filters by
// site and by these tags. An ip target has none of them.
import { type AnyColumn, type SQL, sql } from "drizzle-orm";

type Ref = AnyColumn | SQL;

/** The hardware id of the target (itself, or the hardware it runs on); null for other kinds. */
export function hardwareIdOf(targetType: Ref, targetId: Ref): SQL {
  return sql`(case ${targetType}
    when 'hardware' then ${targetId}
    when 'compute_unit' then (select tp_c.hardware_id from compute_units tp_c where tp_c.id = ${targetId})
    when 'service' then (select coalesce(tp_s.hardware_id, (select tp_sc.hardware_id from compute_units tp_sc where tp_sc.id = tp_s.compute_id))
      from services tp_s where tp_s.id = ${targetId})
  end)`;
}

/** The site id of the target's hardware, or null. */
export function siteIdOf(targetType: Ref, targetId: Ref): SQL {
  return sql`(select tp_h.site_id from hardware tp_h where tp_h.id = ${hardwareIdOf(targetType, targetId)})`;
}

/** The target's own tags followed by its hardware's (a hardware target's appear twice; readers dedupe); never null. */
export function tagsOf(targetType: Ref, targetId: Ref): SQL {
  return sql`(coalesce((case ${targetType}
      when 'compute_unit' then (select tp_tc.tags from compute_units tp_tc where tp_tc.id = ${targetId})
      when 'service' then (select tp_ts.tags from services tp_ts where tp_ts.id = ${targetId})
      when 'external_node' then (select tp_te.tags from external_nodes tp_te where tp_te.id = ${targetId})
    end), '{}'::text[])
    || coalesce((select tp_th.tags from hardware tp_th where tp_th.id = ${hardwareIdOf(targetType, targetId)}), '{}'::text[]))`;
}
