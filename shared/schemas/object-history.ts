// GET /api/v1/history: an inventory object's change history for whoever may read the object
// (docs/adr/0483-object-history-for-readers.md). The entries are the audit log's, without what only
// administrators read there: the address, the role at the time and the hash chain.
import * as v from "valibot";
import { OBJECT_TYPES } from "../verbs/inventory/object-kinds.ts";
import { listQuery } from "./list-query.ts";

const NewestFirst = v.optional(v.picklist(["asc", "desc"], "Must be asc or desc."), "desc");
const required = "Name the object: object_type and object_id are both required.";

export const ObjectHistoryQuery = listQuery(["timestamp"], {
  direction: NewestFirst,
  object_type: v.picklist(OBJECT_TYPES, `Must be one of: ${OBJECT_TYPES.join(", ")}.`),
  object_id: v.pipe(v.string(required), v.regex(/^\d{1,10}$/, "Must be an integer id."), v.transform(Number)),
});

export const ObjectHistoryEntry = v.object({
  id: v.number(),
  timestamp: v.string(),
  action: v.string(),
  actor_id: v.nullable(v.number()),
  /** The actor's display name now, or the e-mail the log recorded when the user has none or is gone. */
  actor_name: v.nullable(v.string()),
  /** What changed: `before` and `after` with the fields that differ, as the audit log holds it. */
  diff: v.unknown(),
});
