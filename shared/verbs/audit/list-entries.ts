// GET /logs, /admin/recent-changes and /admin/user-actions/{id}: the audit log filtered, sorted and
// paged by the list contract of docs/architecture.md, API contracts (shared list machinery; newest first unless asked).
import { gte, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { auditLog } from "../../db/schema/index.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { eqFilter } from "../resources/filters.ts";
import { escapeLike, type ListPage, type ListSpec, listPage } from "../resources/list.ts";
import { defineRead } from "../verb.ts";
import { AUDIT_SCOPE, type AuditEntry, toAuditEntry } from "./entry.ts";

export const AUDIT_SORTS = ["timestamp", "id", "action", "level", "category", "actor_id", "entity_type"] as const;
export const AUDIT_LEVELS = ["info", "warning", "critical"] as const;

export interface AuditListInput extends ListParams {
  level?: (typeof AUDIT_LEVELS)[number] | undefined;
  category?: string | undefined;
  action?: string | undefined;
  actor_id?: number | undefined;
  entity_type?: string | undefined;
  entity_id?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  /** Only entries that changed something: a diff with `before` or `after`. */
  changes_only?: boolean | undefined;
}

const SPEC: ListSpec = {
  table: auditLog,
  id: auditLog.id,
  sortable: Object.fromEntries(AUDIT_SORTS.map((k) => [k, auditLog[k]])),
  search: [],
};

/** q also looks inside the diff (a changed host name, the e-mail of a failed sign-in). */
function searchEntries(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const p = `%${escapeLike(q)}%`;
  const columns = [auditLog.action, auditLog.category, auditLog.actor_email, auditLog.entity_type, auditLog.entity_id];
  return sql`(${sql.join([...columns.map((c) => sql`${c} ilike ${p}`), sql`${auditLog.diff}::text ilike ${p}`], sql` or `)})`;
}

/** One page of audit entries by the list contract: the admin log's read and an object's history share it. */
export function auditPage(db: Db, input: AuditListInput): Promise<ListPage<AuditEntry>> {
  const { q, ...params } = input;
  return listPage<typeof auditLog.$inferSelect, AuditEntry>(
    db,
    SPEC,
    params,
    [
      eqFilter(auditLog.level, input.level),
      eqFilter(auditLog.category, input.category),
      eqFilter(auditLog.action, input.action),
      eqFilter(auditLog.actor_id, input.actor_id),
      eqFilter(auditLog.entity_type, input.entity_type),
      eqFilter(auditLog.entity_id, input.entity_id),
      input.since && gte(auditLog.timestamp, input.since),
      input.until && lte(auditLog.timestamp, input.until),
      input.changes_only ? sql`${auditLog.diff} ?| array['before', 'after']` : undefined,
      searchEntries(q),
    ],
    (rows) => rows.map(toAuditEntry),
  );
}

export const listAuditEntries = defineRead<AuditListInput, ListPage<AuditEntry>>({ scope: AUDIT_SCOPE }, (ctx, input) =>
  auditPage(ctx.db, input),
);
