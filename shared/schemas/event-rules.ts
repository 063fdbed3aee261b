// Event rules (docs/event-rules.md): which inventory changes go to which webhook sinks.
import * as v from "valibot";
import { CONDITION_OPS, EVENT_ACTIONS, EVENT_KINDS } from "../domain/event-rules.ts";
import { IntFilter, listQuery, listResponse } from "./list-query.ts";
import { AttemptOut, DELIVERY_STATES, DeliveryProgress } from "./notifications.ts";
import { MAX_INT4, Name, patchBody, Ref, TagName, writeBody } from "./fields.ts";

const nonEmptySet = <T extends v.GenericSchema<unknown, string | number>>(item: T, what: string) =>
  v.pipe(
    v.array(item),
    v.minLength(1, `Name at least one ${what}.`),
    v.maxLength(50),
    v.transform((xs) => [...new Set(xs)]),
  );

export const EventRuleConditionSchema = v.strictObject({
  field: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  op: v.picklist(CONDITION_OPS, `Must be one of: ${CONDITION_OPS.join(", ")}.`),
  // Any JSON value: compared with the field's value in the object as the API answers it.
  value: v.unknown(),
});

const writable = {
  name: Name,
  enabled: v.optional(v.boolean(), true),
  kinds: nonEmptySet(v.picklist(EVENT_KINDS, `Must be one of: ${EVENT_KINDS.join(", ")}.`), "kind"),
  actions: nonEmptySet(v.picklist(EVENT_ACTIONS, `Must be one of: ${EVENT_ACTIONS.join(", ")}.`), "action"),
  tag: v.optional(v.nullable(TagName)),
  site_id: v.optional(v.nullable(Ref)),
  condition: v.optional(v.nullable(EventRuleConditionSchema)),
  sink_ids: nonEmptySet(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_INT4)), "webhook sink"),
};

export const EventRuleCreate = writeBody(writable);
export const EventRulePatch = patchBody(writable);

export const EventRule = v.object({
  id: v.number(),
  name: v.string(),
  enabled: v.boolean(),
  kinds: v.array(v.string()),
  actions: v.array(v.string()),
  tag: v.nullable(v.string()),
  site_id: v.nullable(v.number()),
  condition: v.nullable(v.object({ field: v.string(), op: v.string(), value: v.unknown() })),
  sink_ids: v.array(v.number()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
});

export const EventRuleListQuery = listQuery(["name", "created_at", "updated_at"], { sink_id: IntFilter });

/** An event rule's delivery of one change to one webhook sink, with its attempts. */
export const EventDeliveryOut = v.object({
  id: v.number(),
  rule_id: v.nullable(v.number()),
  sink_id: v.number(),
  sink_name: v.nullable(v.string()),
  ...DeliveryProgress,
  /** The body as sent (docs/event-rules.md, "The payload"). */
  event: v.record(v.string(), v.unknown()),
  attempts: v.array(AttemptOut),
});
export type EventDeliveryShape = v.InferInput<typeof EventDeliveryOut>;

export const EventDeliveryListQuery = listQuery(["created_at", "id", "state"], {
  state: v.optional(v.picklist(DELIVERY_STATES, `Must be one of: ${DELIVERY_STATES.join(", ")}.`)),
  rule_id: IntFilter,
  sink_id: IntFilter,
});
export const EventDeliveryList = listResponse(EventDeliveryOut);
