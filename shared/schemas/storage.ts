import * as v from "valibot";
import { CustomFieldValues, CustomFieldValuesInput } from "./custom-fields.ts";
import { IntFilter, inventoryListQuery, TextFilter } from "./list-query.ts";
import { Name, OptionalNumber, OptionalText, patchBody, RefId, Tags, writeBody } from "./fields.ts";

export const STORAGE_KINDS = ["disk", "pool", "dataset", "share"] as const;
const kindMessage = `Must be one of: ${STORAGE_KINDS.join(", ")}.`;

const writable = {
  name: Name,
  kind: v.picklist(STORAGE_KINDS, kindMessage),
  capacity_gb: OptionalNumber(0, 1e12),
  used_gb: OptionalNumber(0, 1e12),
  hardware_id: RefId,
  path: OptionalText(1000),
  notes: OptionalText(10_000),
  tags: Tags,
  custom_fields: CustomFieldValuesInput,
};
const readOnly = ["hardware_name", "used_pct"];

export const StorageCreate = writeBody(writable, readOnly);
export const StoragePatch = patchBody(writable, readOnly);

export const Storage = v.object({
  id: v.number(),
  name: v.string(),
  kind: v.picklist(STORAGE_KINDS),
  capacity_gb: v.nullable(v.number()),
  used_gb: v.nullable(v.number()),
  /** used_gb / capacity_gb in percent (one decimal), when both are known. */
  used_pct: v.nullable(v.number()),
  hardware_id: v.nullable(v.number()),
  hardware_name: v.nullable(v.string()),
  path: v.nullable(v.string()),
  notes: v.nullable(v.string()),
  tags: v.array(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  custom_fields: CustomFieldValues,
});

export const StorageListQuery = inventoryListQuery(
  ["name", "kind", "capacity_gb", "used_gb", "path", "hardware_id", "created_at", "updated_at"],
  {
    kind: v.optional(v.picklist(STORAGE_KINDS, kindMessage)),
    hardware_id: IntFilter,
    tag: TextFilter,
  },
);
