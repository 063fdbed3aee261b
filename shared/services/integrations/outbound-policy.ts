// The installation's SSRF policy (app_settings outbound_policy, GET/PUT /settings): read afresh for each
// check or request, so an administrator's change applies at once on every instance.
import type { Db } from "../../db/database.ts";
import type { OutboundPolicy } from "../../domain/net/outbound-policy.ts";
import { readAllSettings } from "../settings/read-all.ts";

export async function readOutboundPolicy(db: Db): Promise<OutboundPolicy> {
  return (await readAllSettings(db)).outbound_policy as OutboundPolicy;
}
