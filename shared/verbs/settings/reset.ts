// POST /settings/reset: every key of GET /settings back to its default. OAuth and the other settings
// with routes of their own are left alone.
import { defineVerb } from "../verb.ts";
import { applySettingChanges } from "./apply.ts";
import { type Settings, SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { SETTING_KEYS } from "./rules.ts";

export const resetSettings = defineVerb(
  { scope: SETTINGS_WRITE_SCOPE },
  async (s): Promise<Settings> => applySettingChanges(s, Object.fromEntries(SETTING_KEYS.map((k) => [k, null])), "settings.reset"),
);
