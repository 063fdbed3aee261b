// GET /logs/actions: every action name in the log with how often it occurs, for filter menus.
import { asc, count } from "drizzle-orm";
import { auditLog } from "../../db/schema/index.ts";
import { defineRead } from "../verb.ts";
import { AUDIT_SCOPE } from "./entry.ts";

export const listAuditActions = defineRead({ scope: AUDIT_SCOPE }, async (ctx) => {
  const items = await ctx.db
    .select({ action: auditLog.action, count: count() })
    .from(auditLog)
    .groupBy(auditLog.action)
    .orderBy(asc(auditLog.action));
  return { items, total: items.length };
});
