// Journal entries (issue 33 item 6, docs/adr/0485-object-journal.md): dated Markdown notes on one
// inventory object, named by (object_type, object_id) as documents and map pins name theirs. There is
// no foreign key behind the pair (it spans thirteen tables): deleting the object deletes its entries in
// the same transaction (shared/verbs/resources/forget-references.ts).
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { type JournalKind, MAX_JOURNAL_COMMENTS } from "../../domain/journal.ts";
import { timestamps } from "./columns.ts";
import { users } from "./identity.ts";

export const journalEntries = pgTable(
  "journal_entries",
  {
    id: serial("id").primaryKey(),
    object_type: text("object_type").notNull(),
    object_id: integer("object_id").notNull(),
    kind: text("kind").$type<JournalKind>().notNull().default("info"),
    comments: text("comments").notNull(),
    /** The author; null when the author's account is gone. */
    created_by: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (t) => [
    // An object's journal, newest first (the list's default order), and what a delete of the object removes.
    index("journal_entries_object_idx").on(t.object_type, t.object_id, t.created_at.desc(), t.id.desc()),
    index("journal_entries_created_by_idx").on(t.created_by),
    check("journal_entries_kind", sql`${t.kind} in ('info', 'success', 'warning', 'danger')`),
    check("journal_entries_comments_length", sql`char_length(${t.comments}) between 1 and ${sql.raw(String(MAX_JOURNAL_COMMENTS))}`),
  ],
);
