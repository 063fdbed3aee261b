// [integrations] monitoring integrations (spec/catalogue.tsv, group integrations): Uptime Kuma and the built-in
// monitors; their monitors, status-change events and the native monitors. Bodies, answers, parameters.
import * as v from "valibot";
import { IdParam, Name, patchBody, Ref, RefId, writeBody } from "./fields.ts";
import { listQuery, listResponse } from "./list-query.ts";

const Url = v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(2000));
// Uptime Kuma's slugs are lower-case letters, digits and dashes; we also take underscores.
const Slug = v.nullable(
  v.pipe(v.string(), v.trim(), v.regex(/^[A-Za-z0-9_-]{0,64}$/, "Must be a status page slug (letters, digits, - and _).")),
);
// Sent as the password of HTTP basic auth: printable ASCII only.
const ApiKey = v.nullable(v.pipe(v.string(), v.maxLength(1024), v.regex(/^[\x20-\x7e]*$/, "Must be printable ASCII.")));
/** How often an integration or provider config syncs: 30 s to a day. */
export const SyncInterval = v.pipe(
  v.number(),
  v.integer("Must be a whole number of seconds."),
  v.minValue(30, "Must be at least 30."),
  v.maxValue(86_400, "Must be at most 86400."),
);
const READ_ONLY = ["last_synced_at", "sync_status", "sync_error", "monitor_count", "api_key_set", "next_sync_at"];

const entries = {
  name: Name,
  base_url: v.optional(v.nullable(Url)),
  slug: v.optional(Slug),
  api_key: v.optional(ApiKey),
  sync_interval_s: v.optional(SyncInterval),
  enabled: v.optional(v.boolean()),
};
/** `type` is checked by the verb: an unknown one is the reference's 400, not a 422. */
export const IntegrationCreate = writeBody({ type: v.pipe(v.string(), v.maxLength(64)), ...entries }, READ_ONLY);
export const IntegrationUpdate = patchBody(entries, [...READ_ONLY, "type"]);

export const IntegrationOut = v.object({
  id: v.number(),
  type: v.string(),
  name: v.string(),
  base_url: v.string(),
  slug: v.nullable(v.string()),
  sync_interval_s: v.number(),
  enabled: v.boolean(),
  last_synced_at: v.nullable(v.string()),
  sync_status: v.string(),
  sync_error: v.nullable(v.string()),
  monitor_count: v.number(),
  api_key_set: v.boolean(),
  next_sync_at: v.nullable(v.string()),
  created_at: v.string(),
  updated_at: v.string(),
});
export const INTEGRATION_SORTS = ["created_at", "name", "type", "id"] as const;
export const IntegrationListQuery = listQuery(
  INTEGRATION_SORTS,
  { type: v.optional(v.picklist(["uptime_kuma", "native"], "Must be uptime_kuma or native.")) },
  "created_at",
);
export const IntegrationList = listResponse(IntegrationOut);

const Field = v.object({
  name: v.string(),
  label: v.string(),
  type: v.string(),
  required: v.boolean(),
  secret: v.boolean(),
  placeholder: v.nullable(v.string()),
});
export const RegistryOut = v.array(v.object({ type: v.string(), display_name: v.string(), config_fields: v.array(Field) }));
export const TestOut = v.object({ ok: v.boolean(), message: v.string() });

export const IntegrationParams = IdParam("integration_id");
export const IntegrationMonitorParams = IdParam("integration_id", "monitor_id");
export const MonitorParams = IdParam("monitor_id");
export const EventParams = IdParam("event_id");

export const IntegrationMonitorOut = v.object({
  id: v.number(),
  integration_id: v.number(),
  integration_name: v.string(),
  external_id: v.string(),
  name: v.string(),
  url: v.nullable(v.string()),
  status: v.string(),
  uptime_7d: v.nullable(v.number()),
  uptime_30d: v.nullable(v.number()),
  last_checked_at: v.nullable(v.string()),
  avg_response_ms: v.nullable(v.number()),
  cert_expiry_days: v.nullable(v.number()),
  linked_hardware_id: v.nullable(v.number()),
  last_heartbeat_at: v.nullable(v.string()),
  linked_service_id: v.nullable(v.number()),
  probe_type: v.nullable(v.string()),
  probe_target: v.nullable(v.string()),
  probe_port: v.nullable(v.number()),
  probe_interval_s: v.number(),
  is_native: v.boolean(),
  monitor_id: v.nullable(v.number()),
});
export const IntegrationMonitorArray = v.array(IntegrationMonitorOut);
export const MonitorLinkBody = writeBody({ linked_hardware_id: RefId, linked_service_id: RefId });

export const MonitorEventOut = v.object({
  id: v.number(),
  monitor_id: v.number(),
  previous_status: v.nullable(v.string()),
  new_status: v.string(),
  detected_at: v.string(),
  reason: v.nullable(v.string()),
  reason_by: v.nullable(v.number()),
  reason_at: v.nullable(v.string()),
});
export const EventReasonBody = writeBody({ reason: v.pipe(v.string(), v.trim(), v.maxLength(2000, "Must be at most 2000 characters.")) });
export const EVENT_SORTS = ["detected_at", "id"] as const;
export const MonitorEventListQuery = listQuery(EVENT_SORTS, {}, "detected_at");
export const MonitorEventList = listResponse(MonitorEventOut);

export const NativeMonitorCreate = writeBody({
  entity_type: v.picklist(["hardware", "service"], "Must be hardware or service."),
  entity_id: Ref,
  probe_type: v.optional(v.nullable(v.picklist(["icmp", "tcp", "http"], "Must be icmp, tcp or http."))),
  probe_target: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(2000)))),
  probe_port: v.optional(
    v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1, "Must be 1..65535."), v.maxValue(65_535, "Must be 1..65535."))),
  ),
  probe_interval_s: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(10, "Must be at least 10."), v.maxValue(86_400, "Must be at most 86400.")),
  ),
  name: v.optional(v.nullable(Name)),
});
export type NativeMonitorInput = v.InferOutput<typeof NativeMonitorCreate>;
export type IntegrationCreateInput = v.InferOutput<typeof IntegrationCreate>;
export type IntegrationUpdateInput = v.InferOutput<typeof IntegrationUpdate>;
export type IntegrationMonitorShape = v.InferOutput<typeof IntegrationMonitorOut>;
