// PATCH /journal/{journal_entry_id}: a new kind or text, If-Match checked (412), by the entry's author or
// an administrator holding the object kind's write scope. An entry never moves to another object.
import type * as v from "valibot";
import type { JournalPatch } from "../../../schemas/journal.ts";
import { updateRow } from "../../resources/update-row.ts";
import { defineVerb } from "../../verb.ts";
import { JOURNAL_ENTRY, presentEntry, requireMayChange, signedIn } from "./entry-kind.ts";

type Values = v.InferOutput<typeof JournalPatch>;

export const updateJournalEntry = defineVerb(
  {
    scope: signedIn,
  },
  async (s, { id, values, ifMatch }: { id: number; values: Values; ifMatch?: number | undefined }) => {
    const after = await updateRow(
      s,
      JOURNAL_ENTRY,
      { id, ifMatch },
      {
        // Who may change it is known only from the (locked) row.
        values: (before) => {
          requireMayChange(s.ctx, before);
          return values;
        },
        skipUnchanged: true,
      },
    );
    return { item: await presentEntry(s.tx, after), version: after.version };
  },
);
