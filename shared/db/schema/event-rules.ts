// Event rules (issue 33 item 5; docs/adr/0488-inventory-event-rules.md): on a create, update or delete of
// chosen inventory kinds, optionally narrowed by a tag, a site or a condition on a field, a delivery to
// each of the rule's webhook sinks is queued in the transaction of the change (docs/event-rules.md).
import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./columns.ts";

/** event_rules.condition: a test on one field of the object's presented shape. */
export interface EventRuleCondition {
  field: string;
  op: "eq" | "neq" | "in" | "contains";
  value: unknown;
}

export const eventRules = pgTable(
  "event_rules",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** Inventory kinds by entity type (hardware, service, ...): shared/verbs/event-rules/kinds.ts. */
    kinds: text("kinds").array().notNull(),
    /** created | updated | deleted */
    actions: text("actions").array().notNull(),
    /** Only objects carrying this tag (before or after the change). */
    tag: text("tag"),
    /** Only objects at this site (before or after the change); no foreign key: a rule of a deleted site matches nothing. */
    site_id: integer("site_id"),
    condition: jsonb("condition").$type<EventRuleCondition>(),
    /** notification_sinks of provider `webhook`; a sink deleted since is skipped. */
    sink_ids: integer("sink_ids").array().notNull(),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("event_rules_name_idx").on(t.name),
    check("event_rules_kinds_nonempty", sql`cardinality(kinds) > 0 and cardinality(actions) > 0 and cardinality(sink_ids) > 0`),
  ],
);
