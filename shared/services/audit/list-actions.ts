// GET /logs/actions: every action name in the log with how often it occurs, for filter menus.
import { asc, count } from "drizzle-orm";
import { auditLog } from "../../db/schema/index.ts";
import type { VerbContext } from "../verb-context.ts";
import { requireScope } from "../verb.ts";
import { AUDIT_SCOPE } from "./entry.ts";

export async function listAuditActions({ ctx }: { ctx: VerbContext }) {
  requireScope(ctx, AUDIT_SCOPE);
  const items = await ctx.db
    .select({ action: auditLog.action, count: count() })
    .from(auditLog)
    .groupBy(auditLog.action)
    .orderBy(asc(auditLog.action));
  return { items, total: items.length };
}
