// The bodies of the probes (GET /livez, /startupz, /readyz and the legacy /health; docs/architecture.md, API
// contracts): the same shape answers 200 and 503.
import * as v from "valibot";

const state = v.picklist(["starting", "ready", "stopping"]);
const health = v.picklist(["starting", "ready", "degraded", "not_ready", "stopping"]);
const probe = v.picklist(["ok", "error"]);

export const Checks = v.object({
  database: probe,
  migrations: v.picklist(["ok", "behind", "ahead", "unknown"]),
  redis: v.optional(probe),
});

export const Livez = v.object({ status: v.literal("alive"), uptime_s: v.number() });
export const Startupz = v.object({ started: v.boolean(), state });
export const Readyz = v.object({
  ready: v.boolean(),
  state,
  health,
  checks: Checks,
  degraded: v.array(v.string()),
  writes_permitted: v.boolean(),
});
export const LegacyHealth = v.object({
  state,
  ready: v.boolean(),
  uptime_s: v.number(),
  checks: Checks,
  health,
  degraded: v.array(v.string()),
  version: v.optional(v.string()),
});
