// [admin] configuration as code (docs/cli.md): a lab file's objects applied in one transaction, its
// diff, the inventory written as a lab file, and the file format's JSON Schema.
import * as v from "valibot";
import { IntFilter, listQuery, listResponse, TextFilter } from "./list-query.ts";

const Owner = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, "Must not be empty."),
  v.maxLength(100),
  v.regex(/^[\w.@-]+$/, "Letters, digits, _ . @ - only."),
  v.description("The name of the set of objects the file owns; --prune deletes only this owner's objects."),
);

const Entry = v.strictObject({
  kind: v.pipe(v.string(), v.maxLength(64), v.description("A configuration kind: sites, hardware, services, ...")),
  key: v.pipe(v.string(), v.minLength(1, "Must not be empty."), v.maxLength(200), v.description("The entry's stable key within its kind.")),
  fields: v.pipe(v.record(v.string(), v.unknown()), v.description("Its fields; references and links by key.")),
});

export const ApplyBody = v.strictObject({
  owner: v.optional(Owner, "default"),
  objects: v.pipe(v.array(Entry), v.maxLength(100_000)),
  prune: v.optional(v.boolean(), false),
});

export const ApplyQuery = v.object({
  dry_run: v.pipe(
    v.optional(v.picklist(["true", "false", "1", "0"], "Must be true or false."), "false"),
    v.transform((s) => s === "true" || s === "1"),
    v.description("Answer the diff and change nothing."),
  ),
});

const FieldChange = v.object({ from: v.unknown(), to: v.unknown() });
const Change = v.object({
  kind: v.string(),
  key: v.string(),
  id: v.nullable(v.number()),
  action: v.picklist(["create", "update", "delete", "unchanged"]),
  fields: v.optional(v.record(v.string(), FieldChange)),
});

export const ApplyResult = v.object({
  applied: v.pipe(v.boolean(), v.description("False for a dry run (the diff).")),
  dry_run: v.boolean(),
  owner: v.string(),
  counts: v.object({ create: v.number(), update: v.number(), delete: v.number(), unchanged: v.number() }),
  changes: v.array(Change),
});

export const ConfigExportQuery = v.object({
  owner: v.optional(Owner, "default"),
});

export const ConfigDocument = v.pipe(v.record(v.string(), v.unknown()), v.description("A lab file: {owner, <kind>: [entries]}."));

/** GET /config/objects: which lab file (owner) made or adopted an object, under which key. */
export const ConfigObjectsQuery = listQuery(["key", "owner", "kind", "updated_at"] as const, {
  kind: TextFilter,
  owner: TextFilter,
  object_id: IntFilter,
});
export const ConfigObjectOut = v.object({
  owner: v.string(),
  kind: v.string(),
  key: v.string(),
  object_id: v.number(),
  updated_at: v.string(),
});
export const ConfigObjectList = listResponse(ConfigObjectOut);
