// The enabled rules as this process evaluates them, loaded once and kept in memory until a rule changes:
// the engine must not read alert_rules on every telemetry commit (docs/adr/0438). A change is announced
// on NOTIFY `alert_rule_control` (the sidecar LISTENs and calls `invalidate`), the process that made it
// invalidates at once after its commit, and a process that cannot LISTEN (the edge, a functions process
// taking pushes) re-reads at most MAX_AGE_MS late.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { alertRules } from "../../db/schema/index.ts";
import type { Aggregation, Operator, RuleCondition, ScopeKind } from "../../domain/alert-rules/evaluate.ts";
import { findMetric, type MetricDef } from "../../domain/alert-rules/metrics.ts";
import { RuleStates } from "./rule-states.ts";

export const ALERT_RULE_CONTROL_CHANNEL = "alert_rule_control";
const MAX_AGE_MS = 30_000;

export interface CompiledRule extends RuleCondition {
  id: number;
  /** `id@condition`: a state is kept across reloads and edits only while its rule judges the same way. */
  key: string;
  name: string;
  metric: string;
  def: MetricDef & { mount?: string };
  severity: "info" | "warning" | "critical";
  scope_kind: ScopeKind;
  scope_node_id: number | null;
  scope_tag: string | null;
  scope_site_id: number | null;
}

export type RuleRow = typeof alertRules.$inferSelect;

/**
 * What decides a node's state under a rule: an edit that changes none of it (name, description, severity)
 * keeps the nodes' states and alerts; any other edit retires them (docs/adr/0451).
 */
export const conditionOf = (r: RuleRow): string =>
  JSON.stringify([
    r.enabled,
    r.metric,
    r.operator,
    r.threshold,
    r.clear_threshold,
    r.aggregation,
    r.window_secs,
    r.for_secs,
    r.scope_kind,
    r.scope_node_id,
    r.scope_tag,
    r.scope_site_id,
  ]);

export function compileRule(r: RuleRow): CompiledRule | null {
  const def = findMetric(r.metric);
  if (!def) return null;
  return {
    id: r.id,
    key: `${r.id}@${conditionOf(r)}`,
    name: r.name,
    metric: r.metric,
    def,
    operator: r.operator as Operator,
    threshold: r.threshold,
    clear_threshold: r.clear_threshold,
    aggregation: r.aggregation as Aggregation,
    window_secs: r.window_secs,
    for_secs: r.for_secs,
    severity: r.severity as CompiledRule["severity"],
    scope_kind: r.scope_kind as ScopeKind,
    scope_node_id: r.scope_node_id,
    scope_tag: r.scope_tag,
    scope_site_id: r.scope_site_id,
  };
}

/** One process's rules and its (rule, node) states, for one database. */
export class RuleEngine {
  #rules: CompiledRule[] | null = null;
  #loadedAt = 0;
  #loading: Promise<CompiledRule[]> | null = null;
  /** Per rule key and node, the state as last committed (rule-states.ts). */
  readonly states = new RuleStates();

  /** Forget the rules: the next evaluation reads them again (states of rules unchanged are kept). */
  invalidate(): void {
    this.#rules = null;
    this.#loading = null;
  }

  async rules(db: Db, nowMs: number): Promise<CompiledRule[]> {
    if (this.#rules && nowMs - this.#loadedAt < MAX_AGE_MS) return this.#rules;
    const loading = (this.#loading ??= db
      .select()
      .from(alertRules)
      .where(eq(alertRules.enabled, true))
      .then((rows) => rows.flatMap((r) => compileRule(r) ?? [])));
    const rules = await loading;
    if (this.#loading === loading) {
      this.#rules = rules;
      this.#loadedAt = nowMs;
      this.#loading = null;
      this.states.prune(new Set(rules.map((r) => r.key)));
    }
    return rules;
  }
}

const engines = new WeakMap<object, RuleEngine>();

/** The engine of the process for this database handle (a per-request handle on the edge gets a fresh one). */
export function ruleEngineFor(db: Db): RuleEngine {
  let engine = engines.get(db);
  if (!engine) engines.set(db, (engine = new RuleEngine()));
  return engine;
}
