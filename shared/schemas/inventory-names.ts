// [search] GET /inventory/names: the records asked by kind and id (`?hardware=1,2&site=3`), and their names.
import * as v from "valibot";
import { NAMED_KINDS, type NamedKind } from "../verbs/inventory/names.ts";
import { MAX_INT4 } from "./fields.ts";
import { BULK_MAX_IDS } from "./bulk.ts";

/** The most ids asked of one kind: a list page's worth (a screen's references). */
export const NAMES_MAX_IDS = BULK_MAX_IDS;

const IdList = v.optional(
  v.pipe(
    v.string(),
    v.transform((s) => s.split(",").map((t) => t.trim())),
    v.array(v.pipe(v.string(), v.regex(/^\d{1,10}$/, "Ids are whole numbers, comma-separated."), v.transform(Number))),
    v.maxLength(NAMES_MAX_IDS, `At most ${NAMES_MAX_IDS} ids of one kind.`),
    // An id past the integer range names no record: left out rather than refused.
    v.transform((ids) => ids.filter((id) => id <= MAX_INT4)),
    v.description("Comma-separated ids of this kind"),
  ),
);

export const NamesQuery = v.object(Object.fromEntries(NAMED_KINDS.map((k) => [k, IdList])) as Record<NamedKind, typeof IdList>);

export const NamesAnswer = v.object({
  items: v.array(v.object({ type: v.picklist(NAMED_KINDS), id: v.number(), name: v.string() })),
});
