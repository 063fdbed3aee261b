// What each application setting accepts. Keys without a rule of their own (added to defaults.ts later)
// accept a value of their default's type, so a new key is writable the day it appears.
import * as v from "valibot";
import { pinProblem } from "../../domain/cve/feed-source.ts";
import { PROFILES } from "../../ratelimit/policy.ts";
import { SETTING_DEFAULTS, type SettingKey } from "../../settings/defaults.ts";
import type { ValidationIssue } from "../../errors.ts";

type Rule = v.GenericSchema;
const int = (min: number, max: number): Rule => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

// Link-local and cloud metadata are never reachable (ADR 0330): allow_link_local is accepted only as
// false, so a client sending the old shape back still saves, and asking for true is a clear 422.
const Policy = v.strictObject({
  allow_private: v.boolean(),
  allow_loopback: v.boolean(),
  allow_link_local: v.optional(
    v.literal(false, "Link-local and cloud metadata addresses are never reachable; allow_link_local can only be false."),
  ),
});

const RULES: Partial<Record<SettingKey, Rule>> = {
  rate_limit_profile: v.picklist(PROFILES),
  session_timeout_hours: int(1, 720),
  lockout_threshold: int(1, 100),
  lockout_minutes: int(1, 1440),
  // Self-registration never grants more than editor.
  registration_default_role: v.picklist(["viewer", "demo", "editor"]),
  telemetry_hot_days: int(1, 365),
  telemetry_warm_days: int(2, 3650),
  masquerade_minutes: int(1, 1440),
  invite_expiry_hours: int(1, 720),
  outbound_policy: Policy,
  monitor_policy: Policy,
  cve_feed_sources: v.pipe(
    v.array(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(2048),
        v.regex(/^(https?:\/\/[^\s]+|\/[^\0]*)$/i, "Each source is an absolute file path or an http(s) URL."),
        v.check(
          (s) => !pinProblem(s),
          "A #sha256= pin must be the 64 hex digits of the feed's SHA-256 (of the file as stored or served, before gunzip).",
        ),
      ),
    ),
    v.maxLength(50),
  ),
  cve_sync_interval_hours: int(1, 24 * 30),
  discovery_listener_interfaces: v.pipe(
    v.array(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z0-9_.:@-]{1,15}$/, "Each entry is a network interface name (eth0, br-lan): 1 to 15 letters, digits or _ . : @ -."),
      ),
    ),
    v.maxLength(16, "At most 16 interfaces."),
  ),
  public_url: v.union([
    v.literal(""),
    v.pipe(v.string(), v.url("Must be a URL."), v.regex(/^https?:\/\/[^/?#]+\/?$/i, "Must be http(s)://host[:port] with no path.")),
  ]),
};

export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTING_DEFAULTS, key);
}

export function settingRule(key: SettingKey): Rule {
  const rule = RULES[key];
  if (rule) return rule;
  const fallback = SETTING_DEFAULTS[key] as unknown;
  if (typeof fallback === "number") return v.pipe(v.number(), v.finite());
  if (typeof fallback === "boolean") return v.boolean();
  return v.pipe(v.string(), v.maxLength(1000));
}

/** Each key's rule for a write (null restores a default); PUT /settings's body is built from these (view.ts). */
export const SETTING_ENTRIES = Object.fromEntries(SETTING_KEYS.map((k) => [k, v.nullable(settingRule(k))])) as Record<string, Rule>;

/** Unknown keys of a patch, one issue each: the verb's own check, for callers other than the route. */
export function unknownKeyIssues(patch: Record<string, unknown>): ValidationIssue[] {
  return Object.keys(patch)
    .filter((k) => !isSettingKey(k))
    .map((k) => ({ loc: ["body", k], msg: `Unknown setting "${k}".`, type: "unknown_key" }));
}

/** Rules across keys, checked on the settings as they would be after the change. */
export function crossKeyIssues(after: Record<string, unknown>): ValidationIssue[] {
  const hot = after.telemetry_hot_days as number;
  const warm = after.telemetry_warm_days as number;
  if (hot < warm) return [];
  return [
    {
      loc: ["body", "telemetry_warm_days"],
      msg: `telemetry_warm_days (${warm}) must be greater than telemetry_hot_days (${hot}).`,
      type: "value_error",
    },
  ];
}

/** The stored value when it passes the key's rule, else the default. */
export function effectiveValue(key: SettingKey, stored: unknown): unknown {
  return stored !== undefined && v.is(settingRule(key), stored) ? stored : SETTING_DEFAULTS[key];
}
