// Query and response schemas of the audit-log routes (GET /logs, the stream and the admin audit
// reads), on the shared list contract; audit lists run newest first by default.
import * as v from "valibot";
import { IdParam } from "./fields.ts";
import { IntFilter, Limit, listQuery, listResponse, Offset, TextFilter, When } from "./list-query.ts";
import { AUDIT_LEVELS, AUDIT_SORTS } from "../verbs/audit/list-entries.ts";

const NewestFirst = v.optional(v.picklist(["asc", "desc"], "Must be asc or desc."), "desc");

export const Paging = v.object({ limit: Limit, offset: Offset, direction: NewestFirst });
export const UserId = IdParam("user_id");

export const LogQuery = listQuery(
  AUDIT_SORTS,
  {
    direction: NewestFirst,
    level: v.optional(v.picklist(AUDIT_LEVELS, `Must be one of: ${AUDIT_LEVELS.join(", ")}.`)),
    category: TextFilter,
    action: TextFilter,
    actor_id: IntFilter,
    entity_type: TextFilter,
    entity_id: TextFilter,
    since: v.optional(When),
    until: v.optional(When),
  },
  "timestamp",
);

/** DELETE /logs: why, recorded with the deletion (?reason= or the body's reason). */
const Reason = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(500)));
export const DeleteLogsQuery = v.object({ reason: Reason });
export const DeleteLogsBody = v.optional(v.object({ reason: Reason }));

/** GET /logs/stream: how many recent entries to send first, and how long to keep the stream open. */
export const StreamQuery = v.object({
  limit: Limit,
  max_seconds: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}$/, "Must be a whole number."),
      v.transform(Number),
      v.minValue(1),
      v.maxValue(3600, "max_seconds is at most 3600."),
    ),
    "300",
  ),
});

export const AuditEntrySchema = v.object({
  id: v.number(),
  timestamp: v.string(),
  level: v.string(),
  category: v.string(),
  action: v.string(),
  actor_id: v.nullable(v.number()),
  actor_email: v.nullable(v.string()),
  role_at_time: v.nullable(v.string()),
  entity_type: v.nullable(v.string()),
  entity_id: v.nullable(v.string()),
  diff: v.unknown(),
  ip_address: v.nullable(v.string()),
  previous_hash: v.nullable(v.string()),
  log_hash: v.string(),
});

export const AuditPageSchema = listResponse(AuditEntrySchema);

export const ChainVerificationSchema = v.object({
  valid: v.boolean(),
  first_failure_id: v.nullable(v.number()),
  message: v.string(),
  checked_count: v.number(),
});

/** GET /logs/actions: every action name with its number of entries. */
export const AuditActions = v.object({ items: v.array(v.object({ action: v.string(), count: v.number() })), total: v.number() });
/** DELETE /logs's answer (also what a replay of the same idempotency key answers). */
export const LogsDeleted = v.object({ deleted_count: v.number(), reason: v.nullable(v.string()), detail: v.string() });
