// [admin] request and response shapes of the inventory export, its import and clear-lab
// (docs/export-import.md).
import * as v from "valibot";
import { EXPORT_FORMAT, EXPORT_ORDER, EXPORT_VERSION } from "../verbs/transfer/kinds.ts";

const Conflict = v.object({
  id: v.union([v.number(), v.string()]),
  index: v.pipe(v.number(), v.description("The row's position in its array of the document.")),
  reason: v.string(),
});
const KindDiff = v.object({
  created: v.number(),
  updated: v.number(),
  unchanged: v.number(),
  conflicts: v.pipe(v.array(Conflict), v.description("Up to 200 per kind; conflict_count is exact.")),
  conflict_count: v.number(),
});
export const ImportResult = v.object({
  imported: v.pipe(v.boolean(), v.description("False for a dry run.")),
  dry_run: v.boolean(),
  wiped: v.boolean(),
  ignored_keys: v.pipe(v.array(v.string()), v.description("Top-level keys of data that are no kind of ours (left alone).")),
  kinds: v.record(v.string(), KindDiff),
});

/** The export document, for the OpenAPI document (the route streams it; rows are our tables' columns). */
export const ExportDocument = v.object({
  version: v.literal(EXPORT_VERSION),
  format: v.literal(EXPORT_FORMAT),
  exported_at: v.string(),
  ...Object.fromEntries(EXPORT_ORDER.map((key) => [key, v.array(v.record(v.string(), v.unknown()))])),
});

export const ImportBody = v.strictObject({
  wipe_before_import: v.optional(v.boolean(), false),
  data: v.pipe(
    // Checked before the record: valibot's record takes an array's indexes for keys.
    v.unknown(),
    v.check((d) => typeof d === "object" && d !== null && !Array.isArray(d), "Must be an export document (an object)."),
    v.record(v.string(), v.unknown()),
    v.description("An export document (GET /admin/export)."),
  ),
});

export const DryRunQuery = v.object({
  dry_run: v.pipe(
    v.optional(v.picklist(["true", "false", "1", "0"], "Must be true or false."), "false"),
    v.transform((s) => s === "true" || s === "1"),
    v.description("Answer the diff the import would apply and change nothing."),
  ),
});

/**
 * POST /admin/clear-lab: {cleared: true} and the rows deleted per table. TypeScript applies an index
 * signature to every key, `cleared` too, so a rest of numbers alone infers `{cleared: true} & {[k]: number}`,
 * which no value satisfies; the rest admits `true` for the type, and the document keeps saying what the
 * other keys are (additionalProperties, which JSON Schema applies only to keys not in properties: numbers).
 */
export const LabCleared = v.pipe(
  v.objectWithRest({ cleared: v.literal(true) }, v.union([v.number(), v.literal(true)])),
  v.metadata({ additionalProperties: { type: "number" } }),
);
export type LabClearedAnswer = v.InferInput<typeof LabCleared>;
