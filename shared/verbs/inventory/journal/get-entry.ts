// GET /journal/{journal_entry_id}: one entry, with its version for If-Match. Its object's read scope is
// checked once the entry is read (the path does not say the kind).
import type { ObjectType } from "../object-kinds.ts";
import { loadRow } from "../../resources/update-row.ts";
import { defineRead } from "../../verb.ts";
import { JOURNAL_ENTRY, presentEntry, requireKindScope, signedIn } from "./entry-kind.ts";

export const getJournalEntry = defineRead(
  {
    scope: signedIn,
  },
  async (ctx, { id }: { id: number }) => {
    const row = await loadRow(ctx.db, JOURNAL_ENTRY, id);
    requireKindScope(ctx, row.object_type as ObjectType, "read");
    return { item: await presentEntry(ctx.db, row), version: row.version };
  },
);
