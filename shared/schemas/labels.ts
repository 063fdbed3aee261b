// The labels resources carry: environments and categories (named, coloured, unique names) and the
// tag set (names come from the resources' tags arrays; only the colour is edited here).
import * as v from "valibot";
import { CustomFieldValues, CustomFieldValuesInput } from "./custom-fields.ts";
import { Name, OptionalText, patchBody, writeBody } from "./fields.ts";
import { inventoryListQuery } from "./list-query.ts";

export const Color = v.optional(
  v.nullable(v.pipe(v.string(), v.trim(), v.regex(/^#[0-9a-fA-F]{6}$/, "Must be a colour written #rrggbb."), v.toLowerCase())),
);

const environment = { name: Name, color: Color, description: OptionalText(2000), custom_fields: CustomFieldValuesInput };
const category = { ...environment, icon: OptionalText(100) };

export const EnvironmentCreate = writeBody(environment);
export const EnvironmentPatch = patchBody(environment);
export const CategoryCreate = writeBody(category);
export const CategoryPatch = patchBody(category);

const labelShape = {
  id: v.number(),
  name: v.string(),
  color: v.nullable(v.string()),
  description: v.nullable(v.string()),
  custom_fields: CustomFieldValues,
  created_at: v.string(),
  updated_at: v.string(),
};
export const Environment = v.object(labelShape);
export const Category = v.object({ ...labelShape, icon: v.nullable(v.string()) });

export const LabelListQuery = inventoryListQuery(["name", "created_at", "updated_at"], {});

export const Tag = v.object({ id: v.number(), name: v.string(), color: v.nullable(v.string()), usage_count: v.number() });
export const TagList = v.array(Tag);
/** Only the colour changes: renaming would rewrite every resource's tags. */
export const TagPatch = writeBody({ color: Color }, ["name", "usage_count"]);
