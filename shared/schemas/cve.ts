// Request and response shapes of the cve group (spec/catalogue.tsv, group cve; docs/cve.md).
import * as v from "valibot";
import { limitParam, Offset } from "./list-query.ts";
import { idInRange } from "./fields.ts";

const Time = v.nullable(v.string());
const PathId = v.pipe(
  v.string(),
  v.regex(/^\d{1,20}$/, "Must be a positive integer id."),
  v.transform(Number),
  v.check(idInRange, "No such id."),
);

export const FeedStateFields = {
  state: v.picklist(["unavailable", "incomplete", "ready", "stale"]),
  generation: v.pipe(v.number(), v.description("Completed syncs so far (0: never).")),
  completed_at: Time,
  age_seconds: v.nullable(v.number()),
  total_records: v.number(),
  coverage_complete: v.boolean(),
  last_attempt_at: Time,
  last_success_at: Time,
  last_error: v.nullable(v.string()),
};

export const Status = v.object({
  enabled: v.boolean(),
  last_sync_at: Time,
  sync_interval_hours: v.number(),
  total_entries: v.number(),
  ...FeedStateFields,
  sources: v.pipe(
    v.array(v.object({ index: v.number(), transport: v.picklist(["file", "https", "http"]), sha256_pinned: v.boolean() })),
    v.description(
      "Each cve_feed_sources entry by its index: how it is read and whether a #sha256= pin guards it (the addresses are in GET /settings, for administrators).",
    ),
  ),
  plain_http: v.pipe(
    v.boolean(),
    v.description("Some source is fetched over plain HTTP: readable and changeable on the way unless pinned."),
  ),
});

export const SearchQuery = v.object({
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
  vendor: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
  product: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
  severity: v.optional(v.picklist(["critical", "high", "medium", "low", "none"], "Must be critical, high, medium, low or none.")),
  limit: limitParam({ default: 50, max: 500 }),
  offset: Offset,
});

export const SearchItem = v.object({
  cve_id: v.string(),
  vendor: v.nullable(v.string()),
  product: v.nullable(v.string()),
  version_start: v.nullable(v.string()),
  version_end: v.nullable(v.string()),
  severity: v.nullable(v.string()),
  cvss_score: v.nullable(v.number()),
  summary: v.nullable(v.string()),
  published_at: Time,
  updated_at: v.string(),
});
export const SearchPage = v.object({ items: v.array(SearchItem), total: v.number() });

export const Identity = v.object({
  vendor: v.string(),
  product: v.string(),
  version: v.nullable(v.string()),
  version_scheme: v.nullable(v.literal("dotted_numeric")),
  provenance: v.picklist(["inventory", "operator"]),
  revision: v.number(),
});

const Evidence = v.object({
  criteria: v.string(),
  vendor: v.string(),
  product: v.string(),
  vulnerable: v.boolean(),
  version_result: v.picklist(["match", "no_match", "unknown"]),
  reason: v.string(),
});

const Finding = v.object({
  cve_id: v.string(),
  severity: v.nullable(v.string()),
  cvss_score: v.nullable(v.number()),
  summary: v.nullable(v.string()),
  published_at: Time,
  updated_at: v.string(),
  evidence: v.array(Evidence),
});

export const Assessment = v.object({
  state: v.picklist(["unavailable", "unassessed", "partial", "completed", "stale"]),
  reason_code: v.picklist([
    "feed_missing",
    "feed_incomplete",
    "feed_stale",
    "identity_missing",
    "version_missing",
    "version_unsupported",
    "candidate_limit",
    "completed",
  ]),
  identity: v.nullable(Identity),
  identity_revision: v.nullable(v.number()),
  feed_generation: v.number(),
  feed_age_seconds: v.nullable(v.number()),
  assessed_at: v.string(),
  findings: v.array(Finding),
  total: v.number(),
  completeness: v.picklist(["none", "partial", "complete"]),
  limitations: v.array(v.string()),
  items: v.pipe(v.array(Finding), v.description("The findings again (the reference's compatibility alias).")),
});

export const EntityParams = v.object({ entity_type: v.pipe(v.string(), v.maxLength(40)), entity_id: PathId });
export const IdentityParams = v.object({
  entity_type: v.picklist(["hardware", "compute_unit", "service"], "Must be hardware, compute_unit or service."),
  entity_id: PathId,
});

const CpeName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, "Must not be empty."),
  v.maxLength(200),
  v.regex(/^[^:*?]+$/, "A CPE vendor or product name, without ':', '*' or '?'."),
);
export const IdentityPut = v.strictObject({
  vendor: CpeName,
  product: CpeName,
  version: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(100))), null),
});

export const IdentityView = v.object({
  entity_type: v.picklist(["hardware", "compute_unit", "service"]),
  entity_id: v.number(),
  name: v.string(),
  identity: v.nullable(Identity),
  operator_set: v.boolean(),
});

export const SyncStarted = v.object({
  status: v.literal("sync_started"),
  run_id: v.pipe(v.number(), v.description("The job_runs row of this sync (GET /api/v1/admin/jobs shows it).")),
  started_at: v.string(),
  sources: v.number(),
});
