// The verifiable audit chain (docs/architecture.md, API contracts): each entry stores the previous entry's hash and
// log_hash = sha256(canonical JSON of {timestamp, action, actor_id, role_at_time, entity_type,
// entity_id, diff, ip_address, previous_hash}). Appends are serialised by a transaction-scoped advisory
// lock, so parallel writers can never fork the chain.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { asc, desc, getTableColumns, gt, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { insertJsonRows } from "../db/json-rows.ts";
import { auditLog } from "../db/schema/index.ts";
import { canonicalJson } from "./canonical.ts";

export const AUDIT_CHAIN_LOCK = 7_246_002; // fixed advisory lock key of the audit chain

export interface AuditEntryInput {
  action: string;
  category: string;
  level?: "info" | "warning" | "critical";
  entity_type?: string | null;
  entity_id?: string | number | null;
  diff?: unknown;
}

export interface AuditActorInfo {
  actor_id: number | null;
  actor_email: string | null;
  role_at_time: string | null;
  ip_address: string | null;
}

interface Hashed {
  timestamp: Date;
  action: string;
  actor_id: number | null;
  role_at_time: string | null;
  entity_type: string | null;
  entity_id: string | null;
  diff: unknown;
  ip_address: string | null;
  previous_hash: string | null;
}

export function auditHash(e: Hashed): string {
  const canonical = canonicalJson({
    timestamp: e.timestamp.toISOString(),
    action: e.action,
    actor_id: e.actor_id,
    role_at_time: e.role_at_time,
    entity_type: e.entity_type,
    entity_id: e.entity_id,
    diff: e.diff ?? null,
    ip_address: e.ip_address,
    previous_hash: e.previous_hash,
  });
  return bytesToHex(sha256(utf8ToBytes(canonical)));
}

/**
 * Appends entries inside the caller's transaction (`tx`), after taking the chain lock, so the entries
 * commit or vanish with the change they describe. `genesis` starts a new chain (DELETE /logs).
 */
export async function appendAudit(
  tx: Db,
  now: Date,
  who: AuditActorInfo,
  entries: AuditEntryInput[],
  opts: { genesis?: boolean } = {},
): Promise<void> {
  if (entries.length === 0) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  let previous: string | null = null;
  if (!opts.genesis) {
    const [last] = await tx.select({ h: auditLog.log_hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    previous = last?.h ?? null;
  }
  // Many entries (a bulk write, an import) go in a chunk per statement; ids follow the rows' order, so
  // the chain reads in id order as it was linked (the advisory lock keeps other writers out meanwhile).
  const rows: (typeof auditLog.$inferInsert)[] = [];
  for (const e of entries) {
    const row = {
      timestamp: now,
      action: e.action,
      actor_id: who.actor_id,
      role_at_time: who.role_at_time,
      entity_type: e.entity_type ?? null,
      entity_id: e.entity_id == null ? null : String(e.entity_id),
      diff: e.diff ?? null,
      ip_address: who.ip_address,
      previous_hash: previous,
    };
    const log_hash = auditHash(row);
    rows.push({
      ...row,
      level: e.level ?? "info",
      category: e.category,
      actor_email: who.actor_email,
      log_hash,
    });
    previous = log_hash;
  }
  if (rows.length === 1) return void (await tx.insert(auditLog).values(rows[0]!));
  for (let i = 0; i < rows.length; i += AUDIT_CHUNK) await insertJsonRows(tx, auditLog, AUDIT_COLUMNS, rows.slice(i, i + AUDIT_CHUNK));
}

/** Audit entries per insert statement (one JSON parameter each, db/json-rows.ts). */
const AUDIT_CHUNK = 1000;
const AUDIT_COLUMNS = Object.values(getTableColumns(auditLog))
  .map((c) => c.name)
  .filter((n) => n !== "id");

export interface ChainVerification {
  valid: boolean;
  first_failure_id: number | null;
  message: string;
  checked_count: number;
}

/** Walks the whole chain in id order, recomputing every hash and link. */
export async function verifyAuditChain(db: Db, batch = 2000): Promise<ChainVerification> {
  let checked = 0;
  let previous: string | null = null;
  let afterId = 0;
  for (;;) {
    const rows = await db.select().from(auditLog).where(gt(auditLog.id, afterId)).orderBy(asc(auditLog.id)).limit(batch);
    if (rows.length === 0) break;
    for (const r of rows) {
      const expectedPrevious = checked === 0 ? null : previous;
      if (r.previous_hash !== expectedPrevious)
        return {
          valid: false,
          first_failure_id: r.id,
          message: `Entry ${r.id} does not link to the entry before it.`,
          checked_count: checked,
        };
      const recomputed = auditHash({
        timestamp: r.timestamp,
        action: r.action,
        actor_id: r.actor_id,
        role_at_time: r.role_at_time,
        entity_type: r.entity_type,
        entity_id: r.entity_id,
        diff: r.diff,
        ip_address: r.ip_address,
        previous_hash: r.previous_hash,
      });
      if (recomputed !== r.log_hash)
        return { valid: false, first_failure_id: r.id, message: `Entry ${r.id} was altered after it was written.`, checked_count: checked };
      previous = r.log_hash;
      checked++;
      afterId = r.id;
    }
  }
  return { valid: true, first_failure_id: null, message: `All ${checked} entries verify.`, checked_count: checked };
}
