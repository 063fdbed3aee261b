// DELETE /journal/{journal_entry_id}: by the entry's author or an administrator holding the object kind's
// write scope, If-Match checked (412). The audit entry keeps the text that went.
import { eq } from "drizzle-orm";
import { journalEntries } from "../../../db/schema/index.ts";
import { auditRow, checkVersion, emitAll, loadRow } from "../../resources/update-row.ts";
import { defineVerb } from "../../verb.ts";
import { JOURNAL_ENTRY, requireMayChange, signedIn } from "./entry-kind.ts";

export const deleteJournalEntry = defineVerb(
  {
    scope: signedIn,
  },
  async (s, { id, ifMatch }: { id: number; ifMatch?: number | undefined }) => {
    const row = await loadRow(s.tx, JOURNAL_ENTRY, id, true);
    requireMayChange(s.ctx, row);
    checkVersion(JOURNAL_ENTRY, id, row, ifMatch);
    await s.tx.delete(journalEntries).where(eq(journalEntries.id, id));
    auditRow(s, JOURNAL_ENTRY, "delete", id, { before: row });
    emitAll(s, JOURNAL_ENTRY, "delete", id);
  },
);
