// The installation's SSRF policy (app_settings outbound_policy, GET/PUT /settings): read afresh for each
// check or request, so an administrator's change applies at once on every instance. A stored value that
// no longer passes the setting's rule answers the default, as GET /settings shows it.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { appSettings } from "../../db/schema/index.ts";
import type { OutboundPolicy } from "../../domain/net/outbound-policy.ts";
import { effectiveValue } from "../settings/rules.ts";

export async function readOutboundPolicy(db: Db): Promise<OutboundPolicy> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, "outbound_policy"));
  return effectiveValue("outbound_policy", row?.value) as OutboundPolicy;
}
