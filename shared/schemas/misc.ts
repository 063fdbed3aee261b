import * as v from "valibot";
import { CustomFieldValues, CustomFieldValuesInput } from "./custom-fields.ts";
import { inventoryListQuery, TextFilter } from "./list-query.ts";
import { Name, OptionalText, patchBody, Tags, writeBody } from "./fields.ts";

/** A link shown in the UI: http(s) only, so a stored `javascript:` URL can never run when clicked. */
export const HttpUrl = v.optional(
  v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(2000),
      v.check((s) => s === "" || /^https?:\/\/[^\s]+$/i.test(s), "Must be an http:// or https:// URL."),
    ),
  ),
);

const writable = {
  name: Name,
  kind: OptionalText(100),
  description: OptionalText(10_000),
  url: HttpUrl,
  tags: Tags,
  custom_fields: CustomFieldValuesInput,
};

export const MiscCreate = writeBody(writable);
export const MiscPatch = patchBody(writable);

export const MiscItem = v.object({
  id: v.number(),
  name: v.string(),
  kind: v.nullable(v.string()),
  description: v.nullable(v.string()),
  url: v.nullable(v.string()),
  tags: v.array(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  custom_fields: CustomFieldValues,
});

export const MiscListQuery = inventoryListQuery(["name", "kind", "created_at", "updated_at"], { kind: TextFilter, tag: TextFilter });
