// Every application setting with its effective value (the stored one, or the default when unset or no
// longer valid). No setting of this list is a secret (secrets live elsewhere), but some hold URLs and
// addresses: GET /settings (view.ts) shows them to administrators only.
import { inArray } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { appSettings } from "../../db/schema/index.ts";
import type { SettingKey } from "../../settings/defaults.ts";
import { effectiveValue, SETTING_KEYS } from "./rules.ts";

export const SETTINGS_READ_SCOPE = "read:settings";
/** Changing settings is an administrator's job. */
export const SETTINGS_WRITE_SCOPE = "admin:*";

export type Settings = Record<SettingKey, unknown>;

export async function readAllSettings(db: Db): Promise<Settings> {
  const rows = await db.select().from(appSettings).where(inArray(appSettings.key, SETTING_KEYS));
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  return Object.fromEntries(SETTING_KEYS.map((k) => [k, effectiveValue(k, stored.get(k))])) as Settings;
}
