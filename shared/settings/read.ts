import { eq } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { appSettings } from "../db/schema/index.ts";
import { SETTING_DEFAULTS, type SettingKey, type SettingValue } from "./defaults.ts";

/** One setting's stored value, or its default when unset or of the wrong type. */
export async function readSetting<K extends SettingKey>(db: Db, key: K): Promise<SettingValue<K>> {
  const fallback = SETTING_DEFAULTS[key];
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
  const value = row?.value;
  return (typeof value === typeof fallback ? value : fallback) as SettingValue<K>;
}
