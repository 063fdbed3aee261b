// What GET /logs/stream sends: first the newest entries, then, poll by poll, those after the last one
// sent. Ids only grow (a bigserial taken under the chain lock), so "after id N" never misses a commit.
import { asc, desc, gt } from "drizzle-orm";
import { auditLog } from "../../db/schema/index.ts";
import { defineRead } from "../verb.ts";
import { AUDIT_SCOPE, type AuditEntry, toAuditEntry } from "./entry.ts";

/** Entries in id order: the newest `limit` when `after_id` is null, else up to `limit` after it. */
export const auditFeed = defineRead<{ after_id: number | null; limit: number }, AuditEntry[]>(
  { scope: AUDIT_SCOPE },
  async (ctx, input) => {
    if (input.after_id === null) {
      const newest = await ctx.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(input.limit);
      return newest.reverse().map(toAuditEntry);
    }
    const rows = await ctx.db.select().from(auditLog).where(gt(auditLog.id, input.after_id)).orderBy(asc(auditLog.id)).limit(input.limit);
    return rows.map(toAuditEntry);
  },
);
