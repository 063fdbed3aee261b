// [capabilities, system, timezones] response shapes of GET /capabilities (what this deployment can do),
// GET /system/stats, GET /system/update and GET /timezones.
import * as v from "valibot";
import { AgentFeatures } from "./agents.ts";

export const Capabilities = v.object({
  database: v.picklist(["postgres", "pglite"]),
  redis: v.boolean(),
  edge: v.boolean(),
  features: v.object({
    uploads: v.boolean(),
    avatars: v.boolean(),
    markdown_docs: v.boolean(),
    device_catalog: v.boolean(),
    api_reference_offline: v.boolean(),
    rate_limit_store: v.picklist(["redis", "database"]),
    update_check: v.boolean(),
  }),
  ...AgentFeatures.entries,
});

export const SystemStats = v.object({
  counts: v.record(v.string(), v.number()),
  database: v.object({ kind: v.string(), size_bytes: v.nullable(v.number()) }),
  version: v.string(),
  started_at: v.string(),
  uptime_s: v.number(),
});
export const UpdateStatus = v.object({
  current_version: v.string(),
  latest_version: v.null(),
  update_available: v.boolean(),
  detail: v.string(),
});

export const Timezones = v.array(v.object({ name: v.string(), utc_offset: v.string(), offset_minutes: v.number() }));
