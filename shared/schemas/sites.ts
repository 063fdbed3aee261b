// Sites: a named place (unique), with an address and optional coordinates.
import * as v from "valibot";
import { CustomFieldValues, CustomFieldValuesInput } from "./custom-fields.ts";
import { Name, OptionalNumber, OptionalText, patchBody, writeBody } from "./fields.ts";
import { inventoryListQuery } from "./list-query.ts";

const writable = {
  name: Name,
  description: OptionalText(2000),
  address: OptionalText(500),
  latitude: OptionalNumber(-90, 90),
  longitude: OptionalNumber(-180, 180),
  notes: OptionalText(10_000),
  custom_fields: CustomFieldValuesInput,
};

export const SiteCreate = writeBody(writable);
export const SitePatch = patchBody(writable);

export const Site = v.object({
  id: v.number(),
  name: v.string(),
  description: v.nullable(v.string()),
  address: v.nullable(v.string()),
  latitude: v.nullable(v.number()),
  longitude: v.nullable(v.number()),
  notes: v.nullable(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  custom_fields: CustomFieldValues,
});

export const SiteListQuery = inventoryListQuery(["name", "created_at", "updated_at"], {});
