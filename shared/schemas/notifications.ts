// Request and answer shapes of /notifications/sinks*, /routes* and /deliveries* (spec/catalogue.tsv, group notifications,
// docs/architecture.md, API contracts). provider_config is an object here; its keys are checked per provider type by
// shared/domain/notifications/notifiers/, so one 422 names the key and the type.
import * as v from "valibot";
import { NOTIFIER_TYPES } from "../domain/notifications/notifiers/index.ts";
import { ROUTE_SEVERITIES } from "../domain/notifications/severity.ts";
import { IntFilter, listQuery, listResponse, TextFilter } from "./list-query.ts";
import { Name, patchBody, Ref, TagName, writeBody } from "./fields.ts";
import { QuietHoursBody } from "./notification-escalation.ts";
import { WEEKDAYS } from "../domain/notifications/quiet-hours.ts";

const ProviderType = v.picklist(NOTIFIER_TYPES, `Must be one of: ${NOTIFIER_TYPES.join(", ")}.`);
const ProviderConfig = v.record(v.string(), v.unknown());

export const SinkCreateBody = writeBody({
  name: Name,
  provider_type: ProviderType,
  provider_config: ProviderConfig,
  enabled: v.optional(v.boolean(), true),
});
export type SinkCreate = v.InferOutput<typeof SinkCreateBody>;

export const SinkPatchBody = patchBody({ name: Name, provider_type: ProviderType, provider_config: ProviderConfig, enabled: v.boolean() }, [
  "secret_shown_once",
]);
export type SinkPatch = v.InferOutput<typeof SinkPatchBody>;

export const SinkOut = v.object({
  id: v.number(),
  name: v.string(),
  provider_type: v.string(),
  /** Secrets masked, with `<key>_set` flags. */
  provider_config: v.record(v.string(), v.unknown()),
  enabled: v.boolean(),
  created_at: v.string(),
  updated_at: v.string(),
  /** Only in the create answer of a webhook sink whose secret was generated: shown once. */
  secret: v.optional(v.string()),
});
export type SinkShape = v.InferInput<typeof SinkOut>;

export const SINK_SORTS = ["name", "provider_type", "created_at", "id"] as const;
export const SinkListQuery = listQuery(SINK_SORTS, { provider_type: TextFilter }, "name");
export const SinkList = listResponse(SinkOut);

/** The original's answer to a delete. */
export const StatusOk = v.object({ status: v.literal("ok") });

export const TestResult = v.object({
  ok: v.boolean(),
  error: v.nullable(v.string()),
  /** The queued test delivery (GET /notifications/deliveries?alert_kind=notification.test lists it too). */
  delivery_id: v.nullable(v.number()),
  /** The delivery's state when answered: delivered, dead (refused), pending (no worker took it in time). */
  state: v.nullable(v.string()),
  /** The receiver's HTTP status (null: no attempt yet, an SMTP sink, or no answer at all). */
  http_status: v.nullable(v.number()),
  /** How long the attempt took. */
  duration_ms: v.nullable(v.number()),
  /** The attempt's outcome: delivered, failed or timeout (null: none yet). */
  attempt_outcome: v.nullable(v.picklist(["delivered", "failed", "timeout"])),
});

/** A sink's message templates to preview (an empty or missing one: the server's own text). */
export const TemplatePreviewBody = writeBody({
  title_template: v.optional(v.string()),
  body_template: v.optional(v.string()),
});
export type TemplatePreviewInput = v.InferOutput<typeof TemplatePreviewBody>;

export const TemplatePreviewOut = v.object({ title: v.string(), body: v.string() });
export type TemplatePreview = v.InferInput<typeof TemplatePreviewOut>;

const EventKind = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^(\*|[a-z][a-z0-9_]*(\.[a-z0-9_]+)*(\.\*)?)$/, "Must be an event kind such as monitor.down or monitor.*."),
);

const RouteFields = {
  sink_id: Ref,
  alert_severity: v.picklist(ROUTE_SEVERITIES, 'Must be one of "*", "info", "warning", "critical".'),
  event_kinds: v.pipe(v.array(EventKind), v.maxLength(50)),
  site_id: v.nullable(Ref),
  environment_id: v.nullable(Ref),
  tag: v.nullable(TagName),
  enabled: v.boolean(),
  escalation_policy_id: v.nullable(Ref),
  quiet_hours: v.nullable(QuietHoursBody),
};
export const RouteCreateBody = writeBody({
  ...RouteFields,
  alert_severity: v.optional(RouteFields.alert_severity, "*"),
  event_kinds: v.optional(RouteFields.event_kinds, []),
  site_id: v.optional(RouteFields.site_id, null),
  environment_id: v.optional(RouteFields.environment_id, null),
  tag: v.optional(RouteFields.tag, null),
  enabled: v.optional(RouteFields.enabled, true),
  escalation_policy_id: v.optional(RouteFields.escalation_policy_id, null),
  quiet_hours: v.optional(RouteFields.quiet_hours, null),
});
export type RouteCreate = v.InferOutput<typeof RouteCreateBody>;

export const RoutePatchBody = patchBody(RouteFields);
export type RoutePatch = v.InferOutput<typeof RoutePatchBody>;

export const RouteOut = v.object({
  id: v.number(),
  sink_id: v.number(),
  alert_severity: v.string(),
  event_kinds: v.array(v.string()),
  site_id: v.nullable(v.number()),
  environment_id: v.nullable(v.number()),
  tag: v.nullable(v.string()),
  enabled: v.boolean(),
  escalation_policy_id: v.nullable(v.number()),
  quiet_hours: v.nullable(
    v.object({
      timezone: v.string(),
      windows: v.array(v.object({ days: v.array(v.picklist(WEEKDAYS)), start: v.string(), end: v.string() })),
      hold_below: v.picklist(["warning", "critical"]),
    }),
  ),
  created_at: v.string(),
  updated_at: v.string(),
});
export type RouteShape = v.InferInput<typeof RouteOut>;
export const ROUTE_SORTS = ["id", "sink_id", "created_at"] as const;
export const RouteListQuery = listQuery(ROUTE_SORTS, { sink_id: IntFilter }, "id");
export const RouteList = listResponse(RouteOut);

export const DELIVERY_STATES = ["pending", "retrying", "delivered", "dead", "held", "digested"] as const;

export const AttemptOut = v.object({
  attempt: v.number(),
  outcome: v.string(),
  http_status: v.nullable(v.number()),
  error: v.nullable(v.string()),
  duration_ms: v.number(),
  started_at: v.string(),
});

/** What every delivery shows of its progress: an alert's, and an event rule's (event-rules.ts). */
export const DeliveryProgress = {
  state: v.string(),
  attempt_count: v.number(),
  max_attempts: v.number(),
  next_attempt_at: v.nullable(v.string()),
  last_error: v.nullable(v.string()),
  delivered_at: v.nullable(v.string()),
  replayed_at: v.nullable(v.string()),
  created_at: v.string(),
};

export const DeliveryOut = v.object({
  id: v.number(),
  alert_id: v.number(),
  sink_id: v.number(),
  sink_name: v.nullable(v.string()),
  ...DeliveryProgress,
  /** 0 and 0 for the route's own send; step n of the escalation policy in pass `round`; step 0 round n: the n-th re-notification. */
  escalation_step: v.number(),
  escalation_round: v.number(),
  /** For a held delivery: when the quiet hours that hold it end (its digest goes out then). */
  held_until: v.nullable(v.string()),
  alert: v.object({
    kind: v.string(),
    severity: v.string(),
    title: v.string(),
    monitor_id: v.nullable(v.number()),
    occurred_at: v.string(),
  }),
  attempts: v.array(AttemptOut),
});
export type DeliveryShape = v.InferInput<typeof DeliveryOut>;

export const DELIVERY_SORTS = ["created_at", "id", "state", "next_attempt_at"] as const;
export const DeliveryListQuery = listQuery(
  DELIVERY_SORTS,
  {
    state: v.optional(v.picklist(DELIVERY_STATES, `Must be one of: ${DELIVERY_STATES.join(", ")}.`)),
    sink_id: IntFilter,
    alert_id: IntFilter,
    alert_kind: TextFilter,
  },
  "created_at",
);
export const DeliveryList = listResponse(DeliveryOut);
