import * as v from "valibot";
import { CustomFieldValues, CustomFieldValuesInput } from "./custom-fields.ts";
import { IntFilter, inventoryListQuery, TextFilter } from "./list-query.ts";
import { IpAddress, Name, OptionalInt, OptionalNumber, OptionalText, patchBody, RefId, Tags, writeBody } from "./fields.ts";

export const COMPUTE_KINDS = ["vm", "container"] as const;

/** Icon slugs: lowercase words joined by dashes (they appear in URLs and file names). */
export const ICON_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const IconSlug = v.pipe(v.string(), v.trim(), v.regex(ICON_SLUG, "Lowercase letters, digits and dashes (at most 64)."));
/** DELETE /compute-units/icons/{slug}: the uploaded icon by its slug. */
export const IconSlugParam = v.object({ slug: IconSlug });

const writable = {
  name: Name,
  kind: v.picklist(COMPUTE_KINDS, `Must be one of: ${COMPUTE_KINDS.join(", ")}.`),
  hardware_id: RefId,
  memory_mb: OptionalInt(0, 1_000_000_000),
  cpu_cores: OptionalNumber(0, 100_000),
  disk_gb: OptionalNumber(0, 1e9),
  ip_address: IpAddress,
  // The spec fixes only `running`; hypervisors report more (stopped, paused, ...), so any short word goes.
  status: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(50))),
  os: OptionalText(200),
  icon_slug: v.optional(v.nullable(IconSlug)),
  environment_id: RefId,
  notes: OptionalText(10_000),
  tags: Tags,
  custom_fields: CustomFieldValuesInput,
};
const readOnly = ["hardware_name", "environment_name"];

export const ComputeUnitCreate = writeBody(writable, readOnly);
export const ComputeUnitPatch = patchBody(writable, readOnly);

export const ComputeUnit = v.object({
  id: v.number(),
  name: v.string(),
  kind: v.picklist(COMPUTE_KINDS),
  hardware_id: v.nullable(v.number()),
  hardware_name: v.nullable(v.string()),
  memory_mb: v.nullable(v.number()),
  cpu_cores: v.nullable(v.number()),
  disk_gb: v.nullable(v.number()),
  ip_address: v.nullable(v.string()),
  status: v.string(),
  os: v.nullable(v.string()),
  icon_slug: v.nullable(v.string()),
  environment_id: v.nullable(v.number()),
  environment_name: v.nullable(v.string()),
  notes: v.nullable(v.string()),
  tags: v.array(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  custom_fields: CustomFieldValues,
});

export const ComputeUnitListQuery = inventoryListQuery(
  ["name", "kind", "status", "ip_address", "os", "memory_mb", "cpu_cores", "disk_gb", "hardware_id", "created_at", "updated_at"],
  {
    kind: v.optional(v.picklist(COMPUTE_KINDS, `Must be one of: ${COMPUTE_KINDS.join(", ")}.`)),
    status: TextFilter,
    hardware_id: IntFilter,
    environment_id: IntFilter,
    /** By environment name, for clients that filter on the name they show. */
    environment: TextFilter,
    tag: TextFilter,
  },
);

export const ComputeNetwork = v.object({
  network_id: v.number(),
  name: v.string(),
  cidr: v.nullable(v.string()),
  vlan_id: v.nullable(v.number()),
  gateway: v.nullable(v.string()),
  ip_address: v.nullable(v.string()),
});
export const ComputeNetworks = v.array(ComputeNetwork);

export const ComputeIcon = v.object({
  slug: v.string(),
  label: v.string(),
  group: v.string(),
  /** Where the image is served: built-ins from the frontend's /icons, uploads from /uploads. */
  path: v.string(),
  builtin: v.boolean(),
  content_type: v.nullable(v.string()),
  size: v.nullable(v.number()),
});
export const ComputeIcons = v.array(ComputeIcon);
