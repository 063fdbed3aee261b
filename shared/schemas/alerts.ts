// Request and answer shapes of /alerts* and the acknowledgement link /ack/{token} (docs/adr/0447-acknowledgement.md):
// an item is an incident (the alert that opened it, with its lifecycle) or an event, which has none.
import * as v from "valibot";
import { writeBody } from "./fields.ts";
import { IntFilter, listQuery, listResponse, TextFilter } from "./list-query.ts";

/** open: neither resolved nor acknowledged; event: no lifecycle (a test, a drift, a recovery with no incident). */
const ALERT_SEVERITIES = ["info", "warning", "critical"] as const;

export const ALERT_STATES = ["open", "acknowledged", "resolved", "event"] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const DeliverySummary = v.object({
  total: v.number(),
  delivered: v.number(),
  pending: v.pipe(v.number(), v.description("pending or retrying")),
  dead: v.number(),
});

const AlertFields = {
  id: v.number(),
  kind: v.string(),
  status: v.pipe(v.picklist(["firing", "resolved", "event"]), v.description("What the alert says: a problem began, ended, or neither.")),
  severity: v.string(),
  title: v.string(),
  body: v.string(),
  monitor_id: v.nullable(v.number()),
  target_type: v.nullable(v.string()),
  target_id: v.nullable(v.number()),
  subject: v.nullable(v.string()),
  incident_id: v.nullable(v.number()),
  dispatch_state: v.pipe(v.string(), v.description("waiting | dispatched | suppressed | debounced | unrouted | in_hand")),
  occurred_at: v.string(),
};

export const AlertOut = v.object({
  ...AlertFields,
  monitor_name: v.pipe(v.nullable(v.string()), v.description("The monitor's name now (null when it has none or was deleted).")),
  state: v.picklist(ALERT_STATES),
  resolved_at: v.nullable(v.string()),
  acknowledged_at: v.nullable(v.string()),
  acknowledged_by: v.nullable(v.string()),
  acknowledged_note: v.nullable(v.string()),
  alert_count: v.pipe(v.number(), v.description("The alerts of the incident, its opener and recovery included (1 for an event).")),
  last_alert_at: v.string(),
  deliveries: DeliverySummary,
});
export type AlertShape = v.InferInput<typeof AlertOut>;

export const IncidentDelivery = v.object({
  id: v.number(),
  alert_id: v.number(),
  sink_id: v.number(),
  sink_name: v.nullable(v.string()),
  state: v.string(),
  attempt_count: v.number(),
  delivered_at: v.nullable(v.string()),
  created_at: v.string(),
});

export const AlertDetailOut = v.object({
  ...AlertOut.entries,
  alerts: v.array(v.object(AlertFields)),
  deliveries_list: v.array(IncidentDelivery),
});
export type AlertDetailShape = v.InferInput<typeof AlertDetailOut>;

export const ALERT_SORTS = ["occurred_at", "id", "severity"] as const;
export const AlertListQuery = listQuery(
  ALERT_SORTS,
  {
    state: v.optional(v.picklist(ALERT_STATES, `Must be one of: ${ALERT_STATES.join(", ")}.`)),
    kind: TextFilter,
    monitor_id: IntFilter,
    severity: v.optional(v.picklist(ALERT_SEVERITIES, `Must be one of: ${ALERT_SEVERITIES.join(", ")}.`)),
  },
  "occurred_at",
);
export const AlertList = listResponse(AlertOut);

export const AcknowledgeBody = v.optional(
  writeBody({ note: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500, "Must be at most 500 characters."))) }),
);

export const AckLinkParams = v.object({
  token: v.pipe(v.string(), v.description("The signed token of a delivered message's acknowledge link.")),
});
