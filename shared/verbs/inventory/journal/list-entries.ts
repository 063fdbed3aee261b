// GET /journal: journal entries, newest first, of one object (object_type and object_id), of one kind
// of object, or of every kind the caller may read. An object that is not there is a 404, so an empty
// page always means an object without notes.
import { gte, inArray, lt } from "drizzle-orm";
import type * as v from "valibot";
import { journalEntries } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { JournalListQuery } from "../../../schemas/journal.ts";
import { actorCan } from "../../actor.ts";
import { listPage } from "../../resources/list.ts";
import { eqFilter } from "../../resources/filters.ts";
import { defineRead } from "../../verb.ts";
import { OBJECT_TYPES, readScopeOf } from "../object-kinds.ts";
import { type JournalEntryOut, type JournalRow, presentEntries, requireKindScope, requireObject, signedIn } from "./entry-kind.ts";

type Query = v.InferOutput<typeof JournalListQuery>;

const SPEC = {
  table: journalEntries,
  id: journalEntries.id,
  sortable: { created_at: journalEntries.created_at, updated_at: journalEntries.updated_at, kind: journalEntries.kind },
  search: [journalEntries.comments],
};

export const listJournalEntries = defineRead(
  {
    scope: (ctx, q: Query) => {
      signedIn(ctx);
      if (q.object_type) requireKindScope(ctx, q.object_type, "read");
    },
  },
  async (ctx, q: Query) => {
    if (q.object_id !== undefined && !q.object_type)
      throw ApiError.validation([{ loc: ["query", "object_type"], msg: "object_id needs object_type.", type: "missing" }]);
    if (q.object_type && q.object_id !== undefined) await requireObject(ctx.db, q.object_type, q.object_id);
    // Without object_type: the kinds the caller may read, so a token scoped to one kind sees that kind's notes.
    const types = q.object_type ? [q.object_type] : OBJECT_TYPES.filter((t) => actorCan(ctx.actor!, readScopeOf(t)));
    if (types.length === 0) throw ApiError.forbidden("Reading a journal needs the read scope of an inventory kind.");
    return listPage<JournalRow, JournalEntryOut>(
      ctx.db,
      SPEC,
      q,
      [
        inArray(journalEntries.object_type, types),
        eqFilter(journalEntries.object_id, q.object_id),
        eqFilter(journalEntries.kind, q.kind),
        eqFilter(journalEntries.created_by, q.created_by),
        q.created_after ? gte(journalEntries.created_at, q.created_after) : undefined,
        q.created_before ? lt(journalEntries.created_at, q.created_before) : undefined,
      ],
      (rows) => presentEntries(ctx.db, rows),
    );
  },
);
