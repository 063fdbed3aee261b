// The knowledge base's hostname patterns as inference rules, read once per request (the table is small:
// an operator's list of naming conventions); first pattern by id wins.
import { asc } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { kbHostnames } from "../../../db/schema/index.ts";
import { type HostnameRule, hostnameRule } from "./infer.ts";

const MAX_RULES = 2000;

export async function loadHostnameRules(db: Db): Promise<HostnameRule[]> {
  const rows = await db
    .select({ pattern: kbHostnames.pattern, vendor: kbHostnames.vendor, device_type: kbHostnames.device_type })
    .from(kbHostnames)
    .orderBy(asc(kbHostnames.id))
    .limit(MAX_RULES);
  return rows.map(hostnameRule);
}
