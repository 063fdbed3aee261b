// Hardware clusters (name unique) and their members (a hardware node once per cluster, with a role).
import * as v from "valibot";
import { CustomFieldValues, CustomFieldValuesInput } from "./custom-fields.ts";
import { Name, OptionalText, patchBody, Ref, RefId, writeBody } from "./fields.ts";
import { IntFilter, inventoryListQuery, TextFilter } from "./list-query.ts";

const writable = {
  name: Name,
  type: OptionalText(100),
  description: OptionalText(2000),
  environment_id: RefId,
  custom_fields: CustomFieldValuesInput,
};
const readOnly = ["environment_name"];

export const ClusterCreate = writeBody(writable, readOnly);
export const ClusterPatch = patchBody(writable, readOnly);

export const Cluster = v.object({
  id: v.number(),
  name: v.string(),
  type: v.nullable(v.string()),
  description: v.nullable(v.string()),
  environment_id: v.nullable(v.number()),
  environment_name: v.nullable(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  custom_fields: CustomFieldValues,
});

export const ClusterListQuery = inventoryListQuery(["name", "type", "created_at", "updated_at"], {
  type: TextFilter,
  environment_id: IntFilter,
});

const Role = OptionalText(100);
const memberReadOnly = ["id", "cluster_id", "hardware_id", "hardware_name", "created_at", "updated_at"];
export const ClusterMemberCreate = v.object({ hardware_id: Ref, role: Role });
/** Only the role changes; a member is a (cluster, node) pair, so another node is another member. */
export const ClusterMemberPatch = writeBody({ role: Role }, memberReadOnly);

export const ClusterMember = v.object({
  id: v.number(),
  cluster_id: v.number(),
  hardware_id: v.number(),
  hardware_name: v.string(),
  role: v.nullable(v.string()),
  created_at: v.string(),
  updated_at: v.string(),
});
export const ClusterMembers = v.array(ClusterMember);
