// The fleet-wide discovery pause (POST /discovery/pause|resume writes app_settings discovery_paused):
// while true no job is claimed by the worker and no agent job is dispatched.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { appSettings } from "../../../db/schema/index.ts";

export const DISCOVERY_PAUSED_KEY = "discovery_paused";

export async function discoveryPaused(db: Db): Promise<boolean> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, DISCOVERY_PAUSED_KEY));
  return row?.value === true;
}
