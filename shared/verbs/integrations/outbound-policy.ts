// The installation's SSRF policies (app_settings outbound_policy and monitor_policy, GET/PUT /settings): read afresh for each
// check or request, so an administrator's change applies at once on every instance. A stored value that
// no longer passes the setting's rule answers the default, as GET /settings shows it.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { appSettings } from "../../db/schema/index.ts";
import type { OutboundPolicy } from "../../domain/net/outbound-policy.ts";
import { effectiveValue } from "../settings/rules.ts";

async function readPolicy(db: Db, key: "outbound_policy" | "monitor_policy"): Promise<OutboundPolicy> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
  const { allow_private, allow_loopback } = effectiveValue(key, row?.value) as OutboundPolicy;
  return { allow_private, allow_loopback };
}

export const readOutboundPolicy = (db: Db): Promise<OutboundPolicy> => readPolicy(db, "outbound_policy");

/** The monitors' own policy (monitor_policy): what their checks may reach, at save and at run. */
export const readMonitorPolicy = (db: Db): Promise<OutboundPolicy> => readPolicy(db, "monitor_policy");
