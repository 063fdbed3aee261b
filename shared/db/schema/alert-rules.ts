// Threshold alert rules over the metrics the product collects (issue 29 item 5; docs/alert-rules.md,
// docs/adr/0438): a rule, and per (rule, node) the state its evaluation is in. The state row is written
// only on a transition (pending starts or ends, firing starts or clears), never per sample: the window's
// values live in the memory of the process that commits the samples (shared/verbs/alert-rules/engine.ts).
import { doublePrecision, index, integer, pgTable, primaryKey, serial, text, boolean } from "drizzle-orm/pg-core";
import { timestamps, tz } from "./columns.ts";
import { sites } from "./inventory.ts";

export const alertRules = pgTable(
  "alert_rules",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description"),
    enabled: boolean("enabled").notNull().default(true),
    /** A name of the metric catalogue (shared/domain/alert-rules/metrics.ts), e.g. host.cpu_pct or host.fs_pct{/var}. */
    metric: text("metric").notNull(),
    /** > | < */
    operator: text("operator").notNull(),
    threshold: doublePrecision("threshold").notNull(),
    /** Where a firing rule clears (hysteresis); on the safe side of threshold, or equal to it. */
    clear_threshold: doublePrecision("clear_threshold").notNull(),
    /** last | avg | p50 .. p99 */
    aggregation: text("aggregation").notNull().default("last"),
    window_secs: integer("window_secs").notNull().default(300),
    for_secs: integer("for_secs").notNull().default(0),
    /** info | warning | critical */
    severity: text("severity").notNull().default("warning"),
    /** node | tag | site | all */
    scope_kind: text("scope_kind").notNull().default("all"),
    /** scope node: the hardware id. */
    scope_node_id: integer("scope_node_id"),
    scope_tag: text("scope_tag"),
    scope_site_id: integer("scope_site_id").references(() => sites.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (t) => [index("alert_rules_metric_idx").on(t.metric)],
);

export const alertRuleStates = pgTable(
  "alert_rule_states",
  {
    rule_id: integer("rule_id")
      .notNull()
      .references(() => alertRules.id, { onDelete: "cascade" }),
    /** The node evaluated: a hardware row (no foreign key: the state of a deleted node goes with its rule's next change). */
    hardware_id: integer("hardware_id").notNull(),
    /** ok | pending | firing */
    state: text("state").notNull(),
    pending_since: tz("pending_since"),
    firing_since: tz("firing_since"),
    /** The aggregated value at the last transition. */
    last_value: doublePrecision("last_value"),
    changed_at: tz("changed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.rule_id, t.hardware_id] }), index("alert_rule_states_hw_idx").on(t.hardware_id)],
);
