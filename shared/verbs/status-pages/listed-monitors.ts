// Which monitors a published status page names as monitor items (docs/adr/0461): the page already shows
// their state to anyone, so their own badges are public too. A service's or a tag's members do not
// count: the page does not name them.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";

export async function listedOnPublishedPages(db: Db, monitorIds: readonly number[]): Promise<Set<number>> {
  if (monitorIds.length === 0) return new Set();
  const rows = await queryRows<{ monitor_id: number }>(
    db,
    sql`select distinct i.monitor_id from status_page_items i join status_page_sections s on s.id = i.section_id
        join status_pages p on p.id = s.page_id
        where i.kind = 'monitor' and i.monitor_id = any(${`{${monitorIds.join(",")}}`}::int[]) and p.published`,
  );
  return new Set(rows.map((r) => r.monitor_id));
}
