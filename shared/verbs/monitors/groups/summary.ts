// MonitorRead `members` of group monitors: their members counted by where they stand, one query per page.
import type { Db } from "../../../db/database.ts";
import type { MonitorReadShape } from "../../../schemas/monitors.ts";
import { memberTallies } from "./results.ts";

export type MemberSummary = NonNullable<MonitorReadShape["members"]>;

export async function memberSummaries(db: Db, rows: readonly { id: number; check_type: string }[]): Promise<Map<number, MemberSummary>> {
  const ids = rows.filter((r) => r.check_type === "group").map((r) => r.id);
  if (ids.length === 0) return new Map();
  const tallies = await memberTallies(db, ids);
  return new Map(
    ids.map((id) => {
      const summary: MemberSummary = { total: 0, up: 0, down: 0, pending: 0, paused: 0, maintenance: 0 };
      for (const t of tallies.get(id) ?? []) {
        summary[t.standing] += t.n;
        summary.total += t.n;
      }
      return [id, summary];
    }),
  );
}
