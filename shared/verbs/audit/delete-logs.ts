// DELETE /logs: empties the audit log and starts a new chain whose first entry (previous_hash null)
// says who emptied it, why and how many entries went. The chain lock is taken before the delete, so
// no entry can be appended between the delete and the new genesis.
import { sql } from "drizzle-orm";
import { AUDIT_CHAIN_LOCK } from "../../audit/chain.ts";
import { queryRows } from "../../db/database.ts";
import { defineVerb } from "../verb.ts";
import { AUDIT_SCOPE } from "./entry.ts";

export const deleteLogs = defineVerb({ scope: AUDIT_SCOPE, auditGenesis: true }, async (s, input: { reason: string | null }) => {
  await s.tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  const [row] = await queryRows<{ n: number }>(
    s.tx,
    sql`with gone as (delete from audit_log returning 1) select count(*)::int as n from gone`,
  );
  const deleted_count = Number(row?.n ?? 0);
  s.audit({
    action: "logs.deleted",
    category: "audit",
    level: "critical",
    entity_type: "audit_log",
    diff: { deleted_count, reason: input.reason },
  });
  return { deleted_count, reason: input.reason, detail: `Deleted ${deleted_count} audit entries; a new chain starts with this deletion.` };
});
