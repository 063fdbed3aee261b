import * as v from "valibot";
import { CustomFieldValues, CustomFieldValuesInput } from "./custom-fields.ts";
import { inventoryListQuery, TextFilter } from "./list-query.ts";
import { IpAddress, Name, OptionalText, patchBody, Ref, Tags, writeBody } from "./fields.ts";
import { HttpUrl } from "./misc.ts";

const writable = {
  name: Name,
  provider: OptionalText(200),
  kind: OptionalText(100),
  region: OptionalText(200),
  ip_address: IpAddress,
  url: HttpUrl,
  notes: OptionalText(10_000),
  tags: Tags,
  custom_fields: CustomFieldValuesInput,
};

export const ExternalNodeCreate = writeBody(writable);
export const ExternalNodePatch = patchBody(writable);

export const ExternalNode = v.object({
  id: v.number(),
  name: v.string(),
  provider: v.nullable(v.string()),
  kind: v.nullable(v.string()),
  region: v.nullable(v.string()),
  ip_address: v.nullable(v.string()),
  url: v.nullable(v.string()),
  notes: v.nullable(v.string()),
  tags: v.array(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  custom_fields: CustomFieldValues,
});

export const ExternalNodeListQuery = inventoryListQuery(["name", "provider", "kind", "region", "ip_address", "created_at", "updated_at"], {
  provider: TextFilter,
  kind: TextFilter,
  region: TextFilter,
  tag: TextFilter,
});

export const ExternalNetworkLinkBody = v.object({
  network_id: Ref,
  link_type: OptionalText(100),
});

export const ExternalNetworkLink = v.object({
  id: v.number(),
  external_node_id: v.number(),
  network_id: v.number(),
  network_name: v.string(),
  cidr: v.nullable(v.string()),
  link_type: v.nullable(v.string()),
});
export const ExternalNetworkLinks = v.array(ExternalNetworkLink);

export const ExternalNodeService = v.object({
  id: v.number(),
  name: v.string(),
  slug: v.string(),
  status: v.string(),
  /** The service_external_dependencies row (DELETE /services/{service_id}/external-dependencies/{relation_id}). */
  relation_id: v.number(),
  description: v.nullable(v.string()),
});
export const ExternalNodeServices = v.array(ExternalNodeService);
