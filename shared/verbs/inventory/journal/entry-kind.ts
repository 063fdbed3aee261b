import type { Db } from "../../../db/database.ts";
import { journalEntries, users } from "../../../db/schema/index.ts";
import { renderSafeMarkdown } from "../../../domain/markdown.ts";
import { ApiError } from "../../../errors.ts";
import { actorCan } from "../../actor.ts";
import { iso, namesById } from "../../resources/present.ts";
import type { RowKind } from "../../resources/update-row.ts";
import type { VerbContext } from "../../verb-context.ts";
import { type ObjectType, requireKindScope } from "../object-kinds.ts";

export { requireKindScope, requireObject } from "../object-kinds.ts";

export type JournalRow = typeof journalEntries.$inferSelect;

export const JOURNAL_ENTRY: RowKind<typeof journalEntries> = {
  label: "Journal entry",
  entityType: "journal_entry",
  table: journalEntries,
  columns: { id: journalEntries.id, version: journalEntries.version },
  channels: ["inventory"],
};

/** Any signed-in caller: the kind, and so the scope, is known only once the entry is read. */
export function signedIn(ctx: VerbContext): void {
  if (!ctx.actor) throw ApiError.unauthorized("Authentication required.");
}

/** A change to an entry: the object's write scope, and the entry's author or an administrator. */
export function requireMayChange(ctx: VerbContext, row: JournalRow): void {
  requireKindScope(ctx, row.object_type as ObjectType, "write");
  const actor = ctx.actor!;
  if (row.created_by !== null && row.created_by === actor.userId) return;
  if (actorCan(actor, "admin:*")) return;
  throw ApiError.forbidden("Only the entry's author or an administrator may change or delete a journal entry.");
}

export async function presentEntries(db: Db, rows: JournalRow[]) {
  const authors = await namesById(
    db,
    users,
    users.id,
    users.display_name,
    rows.map((r) => r.created_by),
  );
  return rows.map((r) => ({
    id: r.id,
    object_type: r.object_type as ObjectType,
    object_id: r.object_id,
    kind: r.kind,
    comments: r.comments,
    comments_html: renderSafeMarkdown(r.comments),
    created_by: r.created_by,
    created_by_name: r.created_by === null ? null : (authors.get(r.created_by) ?? null),
    version: r.version,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  }));
}

export type JournalEntryOut = Awaited<ReturnType<typeof presentEntries>>[number];

export const presentEntry = async (db: Db, row: JournalRow) => (await presentEntries(db, [row]))[0]!;
