// The heartbeat bar's data (docs/adr/0465): each monitor's last results, oldest first, with the state the
// monitor was in after each. A sample records up or down only; the state (pending while retrying,
// maintenance, degraded) is that of the latest event at or before the result, since the recorder writes
// each state change as an event stamped with the result's time. One statement for a page of monitors.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import type { HeartbeatShape } from "../../schemas/monitors.ts";

/** How many results a heartbeat bar shows. */
export const HEARTBEATS = 50;

export async function heartbeatsOf(db: Db, ids: readonly number[], limit = HEARTBEATS): Promise<Map<number, HeartbeatShape[]>> {
  const out = new Map<number, HeartbeatShape[]>();
  if (ids.length === 0) return out;
  const rows = await queryRows<{
    monitor_id: number;
    ts: Date;
    avail: boolean;
    latency_ms: number | null;
    msg: string | null;
    status: string | null;
  }>(
    db,
    sql`select m.id as monitor_id, h.ts, h.avail, h.latency_ms, h.msg,
          (select e.status_to from monitor_events e
            where e.monitor_id = m.id and e.status_to is not null and e.created_at <= h.ts order by e.id desc limit 1) as status
        from monitors m cross join lateral
          (select s.ts, s.avail, s.latency_ms, s.msg from monitor_samples s where s.monitor_id = m.id order by s.ts desc limit ${limit}) h
        where m.id = any(${`{${ids.join(",")}}`}::int[])
        order by m.id, h.ts asc`,
  );
  for (const r of rows) {
    const list = out.get(r.monitor_id) ?? [];
    list.push({
      ts: new Date(r.ts).toISOString(),
      // A result without a state change before it (none recorded, or pruned): what the result said.
      status: (r.status ?? (r.avail ? "up" : "down")) as HeartbeatShape["status"],
      latency_ms: r.latency_ms === null ? null : Number(r.latency_ms),
      msg: r.msg,
    });
    out.set(r.monitor_id, list);
  }
  return out;
}
