// The write path shared by PUT /settings, POST /settings/reset and the first-run settings: under the
// settings lock (so checks across keys see the latest values), rows written or removed, and one audit
// entry with the before/after of the keys that really changed.
import { eq, sql } from "drizzle-orm";
import { appSettings } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { SETTING_DEFAULTS, type SettingKey } from "../../settings/defaults.ts";
import type { VerbScope } from "../verb.ts";
import { readAllSettings, type Settings } from "./read-all.ts";
import { crossKeyIssues } from "./rules.ts";
import { outboundIssues } from "./outbound-urls.ts";
import type { OutboundPolicy } from "../../domain/net/outbound-policy.ts";

const SETTINGS_LOCK = 7_246_021; // fixed advisory lock key: writes to app_settings made through the settings API

/** Takes the settings lock for the rest of the verb's transaction. */
export async function lockSettings(s: VerbScope): Promise<void> {
  await s.tx.execute(sql`select pg_advisory_xact_lock(${SETTINGS_LOCK})`);
}

/** Which keys differ between two JSON-like records, as {before, after} of just those keys. */
export function changedKeys(before: Record<string, unknown>, after: Record<string, unknown>) {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
  return {
    keys,
    before: Object.fromEntries(keys.map((k) => [k, before[k] ?? null])),
    after: Object.fromEntries(keys.map((k) => [k, after[k] ?? null])),
  };
}

/** Applies `changes` under the settings lock (null: back to the default, the row removed) and answers the settings after. */
export async function applySettingChanges(s: VerbScope, changes: Partial<Record<SettingKey, unknown>>, action: string): Promise<Settings> {
  await lockSettings(s);
  const before = await readAllSettings(s.tx);
  const after: Settings = { ...before };
  for (const [k, value] of Object.entries(changes) as [SettingKey, unknown][]) after[k] = value === null ? SETTING_DEFAULTS[k] : value;
  const issues = [
    ...crossKeyIssues(after),
    ...(await outboundIssues(changes, before.cve_feed_sources, after.outbound_policy as OutboundPolicy, s.ctx.resolveHost)),
  ];
  if (issues.length) throw ApiError.validation(issues);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) await s.tx.delete(appSettings).where(eq(appSettings.key, key));
    else
      await s.tx
        .insert(appSettings)
        .values({ key, value, updated_at: s.now })
        .onConflictDoUpdate({ target: appSettings.key, set: { value, updated_at: s.now } });
  }
  const diff = changedKeys(before, after);
  if (diff.keys.length)
    s.audit({
      action,
      category: "settings",
      entity_type: "settings",
      entity_id: diff.keys.join(","),
      diff: { before: diff.before, after: diff.after },
    });
  return after;
}
