// POST /alert-rules/test: a rule body (saved or not) judged over the last hour of stored samples, node by
// node, with the same step() the engine runs on live samples: "would have fired at 14:02 and cleared at
// 14:20". Nothing is written. Filesystem metrics keep no history (only the agent's latest frame) and
// forecasts are judged once, on the forecast as it stands.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { freshState, step } from "../../domain/alert-rules/evaluate.ts";
import type { AlertRuleInput, AlertRuleTestResultShape } from "../../schemas/alert-rules.ts";
import { WRITE_MONITORS } from "../monitors/scopes.ts";
import { defineRead } from "../verb.ts";
import { type CompiledRule, compileRule } from "./compiled-rules.ts";
import { storedValues } from "./evaluate-samples.ts";
import { ruleValues } from "./rules.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const MAX_NODES = 1000;

async function nodesInScope(db: Db, r: CompiledRule): Promise<Map<number, string>> {
  const where =
    r.scope_kind === "node"
      ? sql`id = ${r.scope_node_id}`
      : r.scope_kind === "site"
        ? sql`site_id = ${r.scope_site_id}`
        : r.scope_kind === "tag"
          ? sql`${r.scope_tag} = any(tags)`
          : sql`true`;
  const rows = await queryRows<{ id: number; name: string }>(
    db,
    sql`select id, name from hardware where ${where} order by id limit ${MAX_NODES}`,
  );
  return new Map(rows.map((x) => [x.id, x.name]));
}

async function forecastValues(db: Db, r: CompiledRule, ids: number[], now: Date) {
  if (ids.length === 0) return [];
  const rows = await queryRows<{ hardware_id: number; projected_full_at: Date | string | null; evaluated_at: Date | string }>(
    db,
    sql`select hardware_id, projected_full_at, evaluated_at from capacity_forecasts
      where metric = ${r.def.column} and hardware_id = any(${`{${ids.join(",")}}`}::int[])`,
  );
  return rows.map((x) => ({
    hardware_id: x.hardware_id,
    ts: new Date(x.evaluated_at),
    v: x.projected_full_at == null ? Number.POSITIVE_INFINITY : (new Date(x.projected_full_at).getTime() - now.getTime()) / DAY_MS,
  }));
}

export const testRule = defineRead<{ body: AlertRuleInput }, AlertRuleTestResultShape>({ scope: WRITE_MONITORS }, async (ctx, { body }) => {
  const values = await ruleValues(ctx.db, body, null);
  const now = ctx.clock.now();
  const rule = compileRule({ ...values, id: 0, description: null, enabled: true, created_at: now, updated_at: now } as never)!;
  const from = new Date(now.getTime() - HOUR_MS);
  const nodes = await nodesInScope(ctx.db, rule);
  const ids = [...nodes.keys()];
  // The window reaches back before the hour, so the hour's first judgements see a full window.
  const series =
    rule.def.source === "forecast"
      ? await forecastValues(ctx.db, rule, ids, now)
      : await storedValues(ctx.db, rule, ids, new Date(from.getTime() - rule.window_secs * 1000), new Date(now.getTime() + 1));
  const states = new Map<number, ReturnType<typeof freshState>>();
  const transitions: AlertRuleTestResultShape["transitions"] = [];
  for (const point of series) {
    let state = states.get(point.hardware_id);
    if (!state) states.set(point.hardware_id, (state = freshState()));
    const judged = step(rule, state, point.ts.getTime(), point.v);
    if (!judged?.transition || point.ts < from) continue;
    transitions.push({
      hardware_id: point.hardware_id,
      hardware_name: nodes.get(point.hardware_id) ?? null,
      transition: judged.transition,
      at: point.ts.toISOString(),
      value: Number.isFinite(judged.value) ? judged.value : null,
    });
  }
  return {
    from: from.toISOString(),
    to: now.toISOString(),
    nodes_evaluated: states.size,
    samples: series.filter((p) => p.ts >= from).length,
    transitions,
    firing_now: [...states].flatMap(([id, st]) => (st.state === "firing" ? [id] : [])),
  };
});
