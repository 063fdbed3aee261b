// The monitors behind each status page item: a monitor item's own, a service item's (the monitors whose
// target is the service), a tag item's (the monitors whose target, or the hardware it runs on, carries
// the tag, read now, so a tag's members follow it). Paused monitors are left out: they say nothing.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import type { ItemRow } from "./page-rows.ts";

export interface MemberMonitor {
  id: number;
  status: string;
  last_msg: string | null;
  target_type: string | null;
  target_id: number | null;
}

/** Every enabled monitor each item stands for, keyed by the item's id. */
export async function itemMonitors(db: Db, items: readonly ItemRow[]): Promise<Map<number, MemberMonitor[]>> {
  const out = new Map<number, MemberMonitor[]>(items.map((i) => [i.id, []]));
  if (items.length === 0) return out;
  const ids = `{${items.map((i) => i.id).join(",")}}`;
  const rows = await queryRows<MemberMonitor & { item_id: number }>(
    db,
    sql`with i as (select * from status_page_items where id = any(${ids}::int[])),
      m as (
        select m.*, case m.target_type
            when 'hardware' then m.target_id
            when 'compute_unit' then (select c.hardware_id from compute_units c where c.id = m.target_id)
            when 'service' then (select coalesce(s.hardware_id, (select c.hardware_id from compute_units c where c.id = s.compute_id)) from services s where s.id = m.target_id)
          end as hardware_id
        from monitors m where m.enabled
      ),
      tagged as (
        select m.id, i.id as item_id from i join m on i.kind = 'tag' and (
          exists (select 1 from hardware h where h.id = m.hardware_id and i.tag = any(h.tags))
          or (m.target_type = 'compute_unit' and exists (select 1 from compute_units c where c.id = m.target_id and i.tag = any(c.tags)))
          or (m.target_type = 'service' and exists (select 1 from services s where s.id = m.target_id and i.tag = any(s.tags)))
          or (m.target_type = 'external_node' and exists (select 1 from external_nodes e where e.id = m.target_id and i.tag = any(e.tags))))
      ),
      members as (
        select m.id, i.id as item_id from i join m on i.kind = 'monitor' and m.id = i.monitor_id
        union all
        select m.id, i.id from i join m on i.kind = 'service' and m.target_type = 'service' and m.target_id = i.service_id
        union all
        select id, item_id from tagged
      )
      select x.item_id, m.id, m.status, m.last_msg, m.target_type, m.target_id
      from members x join monitors m on m.id = x.id order by x.item_id, m.id`,
  );
  for (const r of rows)
    out.get(r.item_id)?.push({ id: r.id, status: r.status, last_msg: r.last_msg, target_type: r.target_type, target_id: r.target_id });
  return out;
}
