// A journal entry's kinds and bounds (docs/adr/0485-object-journal.md), shared by the table, the API's
// schemas and the console.
export const JOURNAL_KINDS = ["info", "success", "warning", "danger"] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];
/** The longest note, in characters: a page of notes, not a document store. */
export const MAX_JOURNAL_COMMENTS = 20_000;
