// POST /journal: a note on an object that exists (404 otherwise), by the caller (an API token writes as
// its user). Needs the object kind's write scope: a viewer reads a journal but does not write one.
import type * as v from "valibot";
import { journalEntries } from "../../../db/schema/index.ts";
import type { JournalCreate } from "../../../schemas/journal.ts";
import { auditRow, emitAll } from "../../resources/update-row.ts";
import { defineVerb } from "../../verb.ts";
import { JOURNAL_ENTRY, presentEntry, requireKindScope, requireObject } from "./entry-kind.ts";

type Input = v.InferOutput<typeof JournalCreate>;

export const createJournalEntry = defineVerb(
  { scope: (ctx, input: Input) => requireKindScope(ctx, input.object_type, "write") },
  async (s, input: Input) => {
    await requireObject(s.tx, input.object_type, input.object_id);
    const [row] = await s.tx
      .insert(journalEntries)
      .values({ ...input, created_by: s.ctx.actor?.userId ?? null, created_at: s.now, updated_at: s.now })
      .returning();
    auditRow(s, JOURNAL_ENTRY, "create", row!.id, { after: { ...input, created_by: row!.created_by } });
    emitAll(s, JOURNAL_ENTRY, "create", row!.id);
    return { item: await presentEntry(s.tx, row!), version: row!.version };
  },
);
