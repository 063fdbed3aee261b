// POST /settings/reset: every key of GET /settings back to its default. OAuth and the other settings
// with routes of their own are left alone.
import type { VerbContext } from "../verb-context.ts";
import { requireScope } from "../verb.ts";
import { applySettingChanges, settingsTransaction } from "./apply.ts";
import { type Settings, SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { SETTING_KEYS } from "./rules.ts";

export async function resetSettings({ ctx }: { ctx: VerbContext }): Promise<Settings> {
  requireScope(ctx, SETTINGS_WRITE_SCOPE);
  const changes = Object.fromEntries(SETTING_KEYS.map((k) => [k, null]));
  return settingsTransaction(ctx, (s) => applySettingChanges(s, changes, "settings.reset"));
}
