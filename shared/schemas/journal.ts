// Journal entries of inventory objects (issue 33 item 6, docs/adr/0485-object-journal.md): the read
// shape, the create and patch bodies and the list query of /api/v1/journal.
import * as v from "valibot";
import { JOURNAL_KINDS, MAX_JOURNAL_COMMENTS } from "../domain/journal.ts";
import { OBJECT_TYPES } from "../verbs/inventory/object-kinds.ts";
import { IdParam, patchBody, Ref, writeBody } from "./fields.ts";
import { IntFilter, listQuery, When } from "./list-query.ts";

const ObjectTypeField = v.picklist(OBJECT_TYPES, `Must be one of: ${OBJECT_TYPES.join(", ")}.`);
const KindField = v.picklist(JOURNAL_KINDS, `Must be one of: ${JOURNAL_KINDS.join(", ")}.`);
const Comments = v.pipe(
  v.string(),
  v.check((s) => s.trim().length > 0, "Must not be empty."),
  v.maxLength(MAX_JOURNAL_COMMENTS, `At most ${MAX_JOURNAL_COMMENTS} characters.`),
);
const readOnly = ["comments_html", "created_by", "created_by_name"];

export const JournalCreate = writeBody(
  { object_type: ObjectTypeField, object_id: Ref, kind: v.optional(KindField, "info"), comments: Comments },
  readOnly,
);
/** An entry stays on its object: only its kind and text change. */
export const JournalPatch = patchBody({ kind: KindField, comments: Comments }, [...readOnly, "object_type", "object_id"]);

export const JournalEntry = v.object({
  id: v.number(),
  object_type: ObjectTypeField,
  object_id: v.number(),
  kind: KindField,
  /** The Markdown source as written. */
  comments: v.string(),
  /** The source rendered and sanitised (shared/domain/markdown.ts). */
  comments_html: v.string(),
  created_by: v.nullable(v.number()),
  created_by_name: v.nullable(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
});

export const JournalListQuery = listQuery(
  ["created_at", "updated_at", "kind"],
  {
    direction: v.optional(v.picklist(["asc", "desc"], "Must be asc or desc."), "desc"),
    object_type: v.optional(ObjectTypeField),
    object_id: IntFilter,
    kind: v.optional(KindField),
    created_by: IntFilter,
    created_after: v.optional(When),
    created_before: v.optional(When),
  },
  "created_at",
);

export const JournalEntryId = IdParam("journal_entry_id");
