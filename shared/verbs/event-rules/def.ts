// Event rules on the resource engine (docs/event-rules.md): the administrators' (admin:notifications, like
// the sinks they send to), versioned, audited. A write is checked against what the schema cannot know:
// the field a condition tests must be a field of every kind the rule names, the site must exist, and
// each sink must be a webhook (422 naming the field; nothing is written).
import { inArray, sql } from "drizzle-orm";
import { eventRules, notificationSinks, sites } from "../../db/schema/index.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { ADMIN_NOTIFICATIONS } from "../notifications/scopes.ts";
import { withIsoTimestamps } from "../resources/present.ts";
import { defineResource } from "../resources/resource-def.ts";
import { resourceVerbs } from "../resources/resource-verbs.ts";
import { requireUnique } from "../resources/row-checks.ts";
import type { VerbScope } from "../verb.ts";
import { fieldsOf, isEventKind } from "./kinds.ts";

type Values = Partial<typeof eventRules.$inferInsert>;
type Row = typeof eventRules.$inferSelect;

async function check(s: VerbScope, input: Values, existing: Row | undefined): Promise<void> {
  const issues: ValidationIssue[] = [];
  const kinds = (input.kinds ?? existing?.kinds ?? []).filter(isEventKind);
  const condition = input.condition !== undefined ? input.condition : existing?.condition;
  if (condition) {
    const fields = fieldsOf(kinds);
    if (!fields.has(condition.field))
      issues.push({
        loc: ["body", "condition", "field"],
        msg: `${condition.field} is not a field of ${kinds.join(", ")}. Fields: ${[...fields].sort().join(", ")}.`,
        type: "value_error",
      });
    if (condition.op === "in" && !Array.isArray(condition.value))
      issues.push({ loc: ["body", "condition", "value"], msg: "The in operator takes a list of values.", type: "value_error" });
  }
  if (input.site_id != null) {
    const [site] = await s.tx
      .select({ id: sites.id })
      .from(sites)
      .where(inArray(sites.id, [input.site_id]));
    if (!site) issues.push({ loc: ["body", "site_id"], msg: `Site ${input.site_id} does not exist.`, type: "value_error" });
  }
  if (input.sink_ids) {
    const found = await s.tx
      .select({ id: notificationSinks.id, provider_type: notificationSinks.provider_type })
      .from(notificationSinks)
      .where(inArray(notificationSinks.id, input.sink_ids));
    const byId = new Map(found.map((k) => [k.id, k.provider_type]));
    input.sink_ids.forEach((id, i) => {
      const type = byId.get(id);
      if (type !== "webhook")
        issues.push({
          loc: ["body", "sink_ids", i],
          msg: type ? `Sink ${id} is a ${type} sink; event rules send only to webhook sinks.` : `Sink ${id} does not exist.`,
          type: "value_error",
        });
    });
  }
  if (issues.length > 0) throw ApiError.validation(issues);
}

export const eventRuleVerbs = resourceVerbs(
  defineResource({
    label: "Event rule",
    entityType: "event_rule",
    auditCategory: "notifications",
    scope: ADMIN_NOTIFICATIONS,
    table: eventRules,
    columns: { id: eventRules.id, version: eventRules.version },
    channels: ["notifications"],
    list: {
      sortable: { name: eventRules.name, created_at: eventRules.created_at, updated_at: eventRules.updated_at },
      search: [eventRules.name],
    },
    filters: (q: ListParams & { sink_id?: number | undefined }) => [
      q.sink_id !== undefined ? sql`${q.sink_id}::int = any(${eventRules.sink_ids})` : undefined,
    ],
    async toValues(s, input, existing) {
      if ("name" in input && input.name !== undefined)
        await requireUnique(s.tx, {
          table: eventRules,
          id: eventRules.id,
          column: eventRules.name,
          value: input.name,
          exceptId: existing?.id,
          field: "name",
          label: "Event rule",
        });
      await check(s, input, existing);
      return input;
    },
    present: async (_db, rows) => rows.map((r) => withIsoTimestamps(r)),
  }),
);
