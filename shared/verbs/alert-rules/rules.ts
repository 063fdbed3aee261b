// CRUD of threshold alert rules (/alert-rules, ours; docs/alert-rules.md). Reads need read:monitors and
// writes write:monitors (delete: delete:monitors), the monitors' scopes: a rule is a monitor of metrics.
// A change reaches every process's compiled rules: this one's at once after the commit, the sidecars'
// through NOTIFY alert_rule_control (compiled-rules.ts).
import { eq, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { alertRules, hardware, sites } from "../../db/schema/index.ts";
import { clearIsSafe, type ScopeKind } from "../../domain/alert-rules/evaluate.ts";
import { findMetric, METRIC_NAMES_TEXT } from "../../domain/alert-rules/metrics.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { AlertRuleInput, AlertRuleShape } from "../../schemas/alert-rules.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { DELETE_MONITORS, READ_MONITORS, WRITE_MONITORS } from "../monitors/scopes.ts";
import { type ListPage, type ListSpec, listPage } from "../resources/list.ts";
import { defineRead, defineVerb, type VerbScope } from "../verb.ts";
import { ALERT_RULE_CONTROL_CHANNEL, conditionOf, type RuleRow, ruleEngineFor } from "./compiled-rules.ts";
import { retireStates } from "./retire-states.ts";

export function presentRule(r: RuleRow, firing = 0): AlertRuleShape {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    enabled: r.enabled,
    metric: r.metric,
    operator: r.operator as AlertRuleShape["operator"],
    threshold: r.threshold,
    clear_threshold: r.clear_threshold,
    aggregation: r.aggregation as AlertRuleShape["aggregation"],
    window_secs: r.window_secs,
    for_secs: r.for_secs,
    severity: r.severity as AlertRuleShape["severity"],
    scope_kind: r.scope_kind as ScopeKind,
    scope_node_id: r.scope_node_id,
    scope_tag: r.scope_tag,
    scope_site_id: r.scope_site_id,
    firing_count: firing,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

async function firingCounts(db: Db, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ rule_id: number; n: number }>(
    db,
    sql`select rule_id, count(*)::int as n from alert_rule_states where state = 'firing' and rule_id = any(${`{${ids.join(",")}}`}::int[]) group by rule_id`,
  );
  return new Map(rows.map((r) => [r.rule_id, r.n]));
}

export async function requireRule(db: Db, id: number, forUpdate = false): Promise<RuleRow> {
  const q = db.select().from(alertRules).where(eq(alertRules.id, id));
  const [row] = forUpdate ? await q.for("update") : await q;
  if (!row) throw ApiError.notFound("Alert rule", id);
  return row;
}

type Values = Omit<typeof alertRules.$inferInsert, "id" | "created_at" | "updated_at">;

/** The stored values a body makes over `before` (PATCH), checked whole: one 422 naming every bad field. */
export async function ruleValues(db: Db, body: AlertRuleInput, before: RuleRow | null): Promise<Values> {
  const pick = <K extends keyof RuleRow>(k: K, fallback: RuleRow[K]): RuleRow[K] => {
    const given = body[k as keyof AlertRuleInput] as RuleRow[K] | undefined;
    return given !== undefined ? given : before ? before[k] : fallback;
  };
  const issues: ValidationIssue[] = [];
  const add = (field: string, msg: string, type = "value_error") => issues.push({ loc: ["body", field], msg, type });
  const missing = (field: string) => add(field, "Field required.", "missing");
  const name = pick("name", "");
  const metric = pick("metric", "");
  const operator = pick("operator", "");
  const threshold = pick("threshold", Number.NaN);
  if (!before) {
    if (body.name === undefined) missing("name");
    if (body.metric === undefined) missing("metric");
    if (body.operator === undefined) missing("operator");
    if (body.threshold === undefined) missing("threshold");
  }
  if (metric && !findMetric(metric)) add("metric", `Unknown metric "${metric}"; one of: ${METRIC_NAMES_TEXT}.`, "unknown_metric");
  // A clear threshold not given follows the threshold (no hysteresis) unless the stored rule had its own.
  const clear =
    body.clear_threshold != null
      ? body.clear_threshold
      : body.clear_threshold === null || !before || (body.threshold !== undefined && before.clear_threshold === before.threshold)
        ? threshold
        : before.clear_threshold;
  if ((operator === ">" || operator === "<") && Number.isFinite(threshold) && !clearIsSafe({ operator, threshold, clear_threshold: clear }))
    add(
      "clear_threshold",
      `For ${operator} ${threshold} the clear threshold must be ${operator === ">" ? "at most" : "at least"} the threshold (the rule clears once the value is back ${operator === ">" ? "below" : "above"} it).`,
    );
  const scope_kind = pick("scope_kind", "all") as ScopeKind;
  let scope_node_id = pick("scope_node_id", null);
  let scope_tag = pick("scope_tag", null);
  let scope_site_id = pick("scope_site_id", null);
  if (scope_kind === "node") {
    if (scope_node_id == null) missing("scope_node_id");
    else if ((await db.select({ id: hardware.id }).from(hardware).where(eq(hardware.id, scope_node_id))).length === 0)
      add("scope_node_id", `There is no hardware ${scope_node_id}.`, "not_found");
  }
  if (scope_kind === "tag" && scope_tag == null) missing("scope_tag");
  if (scope_kind === "site") {
    if (scope_site_id == null) missing("scope_site_id");
    else if ((await db.select({ id: sites.id }).from(sites).where(eq(sites.id, scope_site_id))).length === 0)
      add("scope_site_id", `There is no site ${scope_site_id}.`, "not_found");
  }
  if (issues.length > 0) throw ApiError.validation(issues);
  // Only the field of the scope's kind is kept: a rule never carries a scope it does not apply.
  if (scope_kind !== "node") scope_node_id = null;
  if (scope_kind !== "tag") scope_tag = null;
  if (scope_kind !== "site") scope_site_id = null;
  return {
    name,
    description: pick("description", null),
    enabled: pick("enabled", true),
    metric,
    operator,
    threshold,
    clear_threshold: clear,
    aggregation: pick("aggregation", "last"),
    window_secs: pick("window_secs", 300),
    for_secs: pick("for_secs", 0),
    severity: pick("severity", "warning"),
    scope_kind,
    scope_node_id,
    scope_tag,
    scope_site_id,
  };
}

function announce(s: VerbScope, id: number, action: string, diff: Record<string, unknown>): void {
  s.audit({ action: `alert_rule.${action}`, category: "monitors", entity_type: "alert_rule", entity_id: id, diff });
  s.emit("monitors", { type: "alert_rule", action, rule_id: id });
}

/** Every process re-reads the rules: the sidecars on the NOTIFY (delivered on commit), this one after it. */
async function rulesChanged(s: VerbScope): Promise<void> {
  await s.tx.execute(sql`select pg_notify(${ALERT_RULE_CONTROL_CHANNEL}, '{}')`);
  const engine = ruleEngineFor(s.ctx.db);
  s.afterCommit(() => engine.invalidate());
}

export const createRule = defineVerb<{ body: AlertRuleInput }, AlertRuleShape>({ scope: WRITE_MONITORS }, async (s, { body }) => {
  const values = await ruleValues(s.tx, body, null);
  const [row] = await s.tx
    .insert(alertRules)
    .values({ ...values, created_at: s.now, updated_at: s.now })
    .returning();
  announce(s, row!.id, "create", { after: presentRule(row!) });
  await rulesChanged(s);
  return presentRule(row!);
});

export const patchRule = defineVerb<{ id: number; body: AlertRuleInput; ifMatch?: number | undefined }, AlertRuleShape>(
  { scope: WRITE_MONITORS },
  async (s, { id, body, ifMatch }) => {
    const before = await requireRule(s.tx, id, true);
    if (ifMatch !== undefined && before.updated_at.getTime() !== ifMatch)
      throw new ApiError("PRECONDITION_FAILED", `Alert rule ${id} changed since it was read: read it again.`);
    const values = await ruleValues(s.tx, body, before);
    // The version must move on even within one millisecond: it is the ETag and the engine's state key.
    const updated = new Date(Math.max(s.now.getTime(), before.updated_at.getTime() + 1));
    const [row] = await s.tx
      .update(alertRules)
      .set({ ...values, updated_at: updated })
      .where(eq(alertRules.id, id))
      .returning();
    // A change to what the rule judges retires its states: nodes left firing get their clear (saying the
    // rule changed) and start again from ok. A rename, a new description or severity keeps them.
    if (conditionOf(before) !== conditionOf(row!)) await retireStates(s, before, "rule_changed");
    announce(s, id, "update", { before: presentRule(before), after: presentRule(row!) });
    await rulesChanged(s);
    return presentRule(row!);
  },
);

export const deleteRule = defineVerb<{ id: number }, void>({ scope: DELETE_MONITORS }, async (s, { id }) => {
  const before = await requireRule(s.tx, id, true);
  await retireStates(s, before, "rule_deleted");
  await s.tx.delete(alertRules).where(eq(alertRules.id, id));
  announce(s, id, "delete", { before: presentRule(before) });
  await rulesChanged(s);
});

export const getRule = defineRead<{ id: number }, AlertRuleShape>({ scope: READ_MONITORS }, async (ctx, { id }) => {
  const row = await requireRule(ctx.db, id);
  return presentRule(row, (await firingCounts(ctx.db, [id])).get(id) ?? 0);
});

const SPEC: ListSpec = {
  table: alertRules,
  id: alertRules.id,
  sortable: {
    name: sql`lower(${alertRules.name})`,
    id: alertRules.id,
    created_at: alertRules.created_at,
    metric: alertRules.metric,
    severity: alertRules.severity,
  },
  search: [alertRules.name, alertRules.metric],
};

export const listRules = defineRead<ListParams & { enabled?: boolean | undefined; metric?: string | undefined }, ListPage<AlertRuleShape>>(
  { scope: READ_MONITORS },
  async (ctx, input) => {
    const page = await listPage<RuleRow, RuleRow>(
      ctx.db,
      SPEC,
      input,
      [
        input.enabled !== undefined ? eq(alertRules.enabled, input.enabled) : undefined,
        input.metric !== undefined ? eq(alertRules.metric, input.metric) : undefined,
      ],
      (rows) => rows,
    );
    const counts = await firingCounts(
      ctx.db,
      page.items.map((r) => r.id),
    );
    return { ...page, items: page.items.map((r) => presentRule(r, counts.get(r.id) ?? 0)) };
  },
);
