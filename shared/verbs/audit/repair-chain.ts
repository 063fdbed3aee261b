// POST /admin/audit-log/repair-chain: from the first entry that fails verification on, recomputes each
// entry's link and hash over its stored content, so the chain verifies again, and records the repair
// (who, why, which range) as a new entry. One transaction under the chain lock: no append can interleave.
// The route verifies the chain again after the commit (verify-chain.ts), the repair's own entry included.
import { asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { AUDIT_CHAIN_LOCK, auditHash, verifyAuditChain } from "../../audit/chain.ts";
import type { Db } from "../../db/database.ts";
import { auditLog } from "../../db/schema/index.ts";
import { defineVerb } from "../verb.ts";
import { AUDIT_SCOPE } from "./entry.ts";

const BATCH = 1000;

export interface RepairResult {
  repaired_count: number;
  first_repaired_id: number | null;
}

/** Relinks and rehashes every entry from `fromId` on; answers how many changed and the range. */
async function relinkFrom(tx: Db, fromId: number) {
  const [before] = await tx
    .select({ h: auditLog.log_hash })
    .from(auditLog)
    .where(lt(auditLog.id, fromId))
    .orderBy(desc(auditLog.id))
    .limit(1);
  let previous: string | null = before?.h ?? null;
  let afterId = fromId - 1;
  let count = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (;;) {
    const rows = await tx.select().from(auditLog).where(gt(auditLog.id, afterId)).orderBy(asc(auditLog.id)).limit(BATCH);
    if (rows.length === 0) break;
    for (const r of rows) {
      const log_hash = auditHash({ ...r, previous_hash: previous });
      if (r.previous_hash !== previous || r.log_hash !== log_hash) {
        await tx.update(auditLog).set({ previous_hash: previous, log_hash }).where(eq(auditLog.id, r.id));
        count++;
        first ??= r.id;
        last = r.id;
      }
      previous = log_hash;
      afterId = r.id;
    }
  }
  return { count, first, last };
}

export const repairAuditChain = defineVerb<{ reason: string }, RepairResult>({ scope: AUDIT_SCOPE }, async (s, input) => {
  await s.tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  const found = await verifyAuditChain(s.tx);
  const range = found.first_failure_id === null ? { count: 0, first: null, last: null } : await relinkFrom(s.tx, found.first_failure_id);
  s.audit({
    action: "audit.chain_repaired",
    category: "audit",
    level: "critical",
    entity_type: "audit_log",
    diff: {
      reason: input.reason,
      failure: found.valid ? null : found.message,
      repaired_count: range.count,
      first_repaired_id: range.first,
      last_repaired_id: range.last,
    },
  });
  return { repaired_count: range.count, first_repaired_id: range.first };
});
