// The knowledge base discovery classifies devices with: hostname patterns and MAC OUI prefixes (the
// first three bytes of a MAC, normalised to "AA:BB:CC"). POST to either collection takes one entry or
// a bulk `{entries: [...]}` (what the export answers).
import * as v from "valibot";
import { listQuery, listResponse } from "./list-query.ts";
import { OptionalText, writeBody } from "./fields.ts";

export const KB_BULK_MAX = 5000;

/** "aa-bb-cc", "AABBCC", "aa:bb:cc", "aa.bb.cc" -> "AA:BB:CC"; anything else is refused. */
export function normaliseOui(text: string): string | null {
  const hex = text.trim().replace(/[\s:.-]/g, "");
  if (!/^[0-9a-fA-F]{6}$/.test(hex)) return null;
  return hex.toUpperCase().match(/../g)!.join(":");
}
const OUI_MESSAGE = "Must be 6 hex digits (an OUI such as AA:BB:CC, aa-bb-cc or aabbcc).";
export const OuiPrefix = v.pipe(
  v.string(),
  v.check((s) => normaliseOui(s) !== null, OUI_MESSAGE),
  v.transform((s) => normaliseOui(s)!),
);
/** /kb/oui/{prefix}: a prefix in any of the forms OuiPrefix reads. */
export const OuiParam = v.object({ prefix: OuiPrefix });

const Pattern = v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(200));
const Vendor = v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(200));

const hostnameFields = { pattern: Pattern, vendor: OptionalText(200), device_type: OptionalText(100), notes: OptionalText(2000) };
export const HostnameEntry = writeBody(hostnameFields);
export const HostnameView = v.object({
  id: v.number(),
  pattern: v.string(),
  vendor: v.nullable(v.string()),
  device_type: v.nullable(v.string()),
  notes: v.nullable(v.string()),
  created_at: v.string(),
  updated_at: v.string(),
});

const ouiFields = { prefix: OuiPrefix, vendor: Vendor, notes: OptionalText(2000) };
export const OuiEntry = writeBody(ouiFields);
/** PUT /kb/oui/{prefix}: the prefix comes from the path (one in the body is ignored). */
export const OuiUpdate = writeBody({ vendor: Vendor, notes: OptionalText(2000) }, ["prefix"]);
export const OuiView = v.object({
  prefix: v.string(),
  vendor: v.string(),
  notes: v.nullable(v.string()),
  created_at: v.string(),
  updated_at: v.string(),
});

/**
 * One entry, or `{entries: [...]}` for a bulk upsert: told apart by the `entries` key, then validated
 * by that shape alone, so the 422 names the real fields (a union would only say "invalid type").
 */
function oneOrMany<S extends v.GenericSchema>(entry: S): v.GenericSchema<unknown, { entries: v.InferOutput<S>[] } | v.InferOutput<S>> {
  const bulk = v.strictObject(
    {
      entries: v.pipe(
        v.array(entry),
        v.minLength(1, "Give at least one entry."),
        v.maxLength(KB_BULK_MAX, `At most ${KB_BULK_MAX} entries.`),
      ),
    },
    "A bulk body has only the field entries.",
  );
  return v.pipe(
    v.record(v.string(), v.unknown()),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const result = v.safeParse("entries" in dataset.value ? bulk : entry, dataset.value);
      if (result.success) return result.output as { entries: v.InferOutput<S>[] } | v.InferOutput<S>;
      for (const issue of result.issues) addIssue({ message: issue.message, path: issue.path as never });
      return NEVER;
    }),
  );
}
export const HostnamePost = oneOrMany(HostnameEntry);
export const OuiPost = oneOrMany(OuiEntry);

export const BulkReport = v.object({ created: v.number(), updated: v.number() });
/** What POST /kb/hostname and /kb/oui answer: the entry created (201), or the bulk upsert's counts (200). */
export const HostnamePosted = v.union([HostnameView, BulkReport]);
export const OuiPosted = v.union([OuiView, BulkReport]);
export const HostnameListQuery = listQuery(["pattern", "vendor", "device_type", "created_at", "updated_at"], {});
export const OuiListQuery = listQuery(["prefix", "vendor", "created_at", "updated_at"], {});
export const HostnameList = listResponse(HostnameView);
export const OuiList = listResponse(OuiView);
export const HostnameExport = v.object({
  format: v.string(),
  exported_at: v.string(),
  entries: v.array(
    v.object({ pattern: v.string(), vendor: v.nullable(v.string()), device_type: v.nullable(v.string()), notes: v.nullable(v.string()) }),
  ),
});
export const OuiExport = v.object({
  format: v.string(),
  exported_at: v.string(),
  entries: v.array(v.object({ prefix: v.string(), vendor: v.string(), notes: v.nullable(v.string()) })),
});
