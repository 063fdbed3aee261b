// VLANs: an 802.1Q tag (1-4094) with a name, unique per site.
import * as v from "valibot";
import { CustomFieldValues, CustomFieldValuesInput } from "./custom-fields.ts";
import { Name, OptionalText, patchBody, RefId, writeBody } from "./fields.ts";
import { IntFilter, inventoryListQuery } from "./list-query.ts";

const writable = {
  vlan_id: v.pipe(v.number(), v.integer(), v.minValue(1, "A VLAN tag is 1 to 4094."), v.maxValue(4094, "A VLAN tag is 1 to 4094.")),
  name: Name,
  description: OptionalText(2000),
  site_id: RefId,
  custom_fields: CustomFieldValuesInput,
};
const readOnly = ["site_name"];

export const VlanCreate = writeBody(writable, readOnly);
export const VlanPatch = patchBody(writable, readOnly);

export const Vlan = v.object({
  id: v.number(),
  vlan_id: v.number(),
  name: v.string(),
  description: v.nullable(v.string()),
  site_id: v.nullable(v.number()),
  site_name: v.nullable(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  custom_fields: CustomFieldValues,
});

export const VlanListQuery = inventoryListQuery(["name", "vlan_id", "created_at", "updated_at"], {
  site_id: IntFilter,
  vlan_id: IntFilter,
});
