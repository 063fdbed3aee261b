// GET /alert-rules/{id}/state: where the rule stands on each node it has judged (ok, pending, firing),
// as the last transition left it; a node the rule never left ok has no row.
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import type { AlertRuleStateListShape } from "../../schemas/alert-rules.ts";
import { READ_MONITORS } from "../monitors/scopes.ts";
import { defineRead } from "../verb.ts";
import { requireRule } from "./rules.ts";

const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());

export const readRuleState = defineRead<{ id: number }, AlertRuleStateListShape>({ scope: READ_MONITORS }, async (ctx, { id }) => {
  await requireRule(ctx.db, id);
  const rows = await queryRows<{
    hardware_id: number;
    hardware_name: string | null;
    state: "ok" | "pending" | "firing";
    pending_since: Date | string | null;
    firing_since: Date | string | null;
    last_value: number | null;
    changed_at: Date | string;
  }>(
    ctx.db,
    sql`select s.hardware_id, h.name as hardware_name, s.state, s.pending_since, s.firing_since, s.last_value, s.changed_at
      from alert_rule_states s left join hardware h on h.id = s.hardware_id
      where s.rule_id = ${id}
      order by case s.state when 'firing' then 0 when 'pending' then 1 else 2 end, s.hardware_id
      limit 1000`,
  );
  return {
    rule_id: id,
    items: rows.map((r) => ({
      ...r,
      pending_since: iso(r.pending_since),
      firing_since: iso(r.firing_since),
      changed_at: iso(r.changed_at)!,
    })),
  };
});
