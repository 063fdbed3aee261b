// The API shape of one audit entry, and the scope every audit read and repair needs: the log holds
// who did what from where, so only administrators read it.
import type { auditLog } from "../../db/schema/index.ts";

export const AUDIT_SCOPE = "admin:*";

type Row = typeof auditLog.$inferSelect;
/** The stored row with its timestamp as ISO 8601 text. */
export type AuditEntry = Omit<Row, "timestamp"> & { timestamp: string };

export function toAuditEntry(row: Row): AuditEntry {
  return { ...row, timestamp: row.timestamp.toISOString(), diff: row.diff ?? null };
}
