// Bulk operations on the records of one inventory resource (POST {base}/bulk-delete, {base}/bulk-tags, {base}/bulk-update):
// up to one list page of ids, all changed or none.
import * as v from "valibot";
import { Ref, TagName, writeBody } from "./fields.ts";

/** A list page at most (the list envelope's limit): a bulk request is one selection on one page. */
export const BULK_MAX_IDS = 100;

const Ids = v.pipe(
  v.array(Ref),
  v.minLength(1, "Select at least one record."),
  v.maxLength(BULK_MAX_IDS, `At most ${BULK_MAX_IDS} records at once.`),
  v.transform((ids) => [...new Set(ids)]),
);
const TagList = v.optional(v.pipe(v.array(TagName), v.maxLength(50)), []);

export const BulkDeleteBody = writeBody({ ids: Ids });

export const BulkTagBody = v.pipe(
  writeBody({ ids: Ids, add: TagList, remove: TagList }),
  v.forward(
    v.check((b) => b.add.length + b.remove.length > 0, "Give a tag to add or to remove."),
    ["add"],
  ),
  v.forward(
    v.check((b) => !b.add.some((t) => b.remove.includes(t)), "A tag cannot be both added and removed."),
    ["remove"],
  ),
);

/**
 * POST {base}/bulk-update: the fields to set on every selected record, validated by the resource's own
 * PATCH schema (`patch`); at least one.
 */
export const bulkUpdateBody = (patch: v.GenericSchema<unknown, Record<string, unknown>>) =>
  v.pipe(
    writeBody({ ids: Ids, set: patch }),
    v.forward(
      v.check((b) => Object.keys(b.set as Record<string, unknown>).length > 0, "Give a field to set."),
      ["set"],
    ),
  );

export const BulkDeleted = v.object({ deleted: v.array(v.number()), count: v.number() });
export const BulkTagged = v.object({
  /** The records whose tags changed (each audited), and those that already had them as asked. */
  changed: v.array(v.number()),
  unchanged: v.array(v.number()),
});

export const BulkUpdated = v.object({ updated: v.array(v.number()) });

/** One record a bulk operation could not change, and why; the 422 lists them all. */
export interface BulkRefusal {
  id: number;
  reason: "not_found" | "conflict" | "invalid";
  detail: string;
}
