// Services (docs/architecture.md, API contracts field names): write bodies, the read shape, the list query, and the bodies and
// shapes of their dependency edges, links, IP check and discovery view.
import * as v from "valibot";
import { CustomFieldValues, CustomFieldValuesInput } from "./custom-fields.ts";
import { IntFilter, inventoryListQuery, TextFilter } from "./list-query.ts";
import { IpAddress, Name, OptionalText, patchBody, Ref, RefId, Tags, writeBody } from "./fields.ts";

export const SERVICE_STATUSES = ["running", "stopped", "degraded", "maintenance"] as const;
export const PORT_PROTOCOLS = ["tcp", "udp"] as const;

const Id = Ref;
const Slug = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(200),
  v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Lower-case letters, digits and single dashes only (e.g. my-service)."),
);

const Port = v.pipe(
  v.object({
    ip: IpAddress,
    port: v.pipe(
      v.number(),
      v.integer("Must be a whole number."),
      v.minValue(1, "Must be 1-65535."),
      v.maxValue(65535, "Must be 1-65535."),
    ),
    protocol: v.optional(v.picklist(PORT_PROTOCOLS, "Must be tcp or udp."), "tcp"),
    label: OptionalText(100),
  }),
  v.transform((p) => ({ ip: p.ip || null, port: p.port, protocol: p.protocol, label: p.label ?? null })),
);

const writable = {
  name: Name,
  slug: v.optional(Slug),
  environment: OptionalText(100),
  environment_id: RefId,
  status: v.optional(v.picklist(SERVICE_STATUSES, `Must be one of: ${SERVICE_STATUSES.join(", ")}.`)),
  hardware_id: RefId,
  compute_id: RefId,
  category_id: RefId,
  url: OptionalText(2000),
  ip_address: IpAddress,
  ports: v.optional(v.pipe(v.array(Port), v.maxLength(200))),
  description: OptionalText(10_000),
  tags: Tags,
  custom_fields: CustomFieldValuesInput,
};
const readOnly = ["environment_name"];

export const ServiceCreate = writeBody(writable, readOnly);
export const ServicePatch = patchBody(writable, readOnly);

const PortShape = v.object({ ip: v.nullable(v.string()), port: v.number(), protocol: v.string(), label: v.nullable(v.string()) });

export const Service = v.object({
  id: v.number(),
  name: v.string(),
  slug: v.string(),
  environment: v.nullable(v.string()),
  environment_id: v.nullable(v.number()),
  environment_name: v.nullable(v.string()),
  status: v.string(),
  hardware_id: v.nullable(v.number()),
  compute_id: v.nullable(v.number()),
  category_id: v.nullable(v.number()),
  url: v.nullable(v.string()),
  ip_address: v.nullable(v.string()),
  ports: v.array(PortShape),
  description: v.nullable(v.string()),
  tags: v.array(v.string()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  custom_fields: CustomFieldValues,
});

export const ServiceListQuery = inventoryListQuery(["name", "slug", "status", "environment", "ip_address", "created_at", "updated_at"], {
  status: TextFilter,
  environment: TextFilter,
  environment_id: IntFilter,
  hardware_id: IntFilter,
  compute_id: IntFilter,
  category_id: IntFilter,
  tag: TextFilter,
});

// Dependencies: an edge "service_id depends on depends_on_id".
export const DependencyCreate = v.object({ depends_on_id: Id });
export const DependencyQuery = v.object({
  direction: v.optional(v.picklist(["dependencies", "dependents"], "Must be dependencies or dependents."), "dependencies"),
});
export const Dependency = v.object({ service_id: v.number(), depends_on_id: v.number(), created_at: v.nullable(v.string()) });
export const RelatedService = v.object({
  id: v.number(),
  name: v.string(),
  slug: v.string(),
  status: v.string(),
  environment: v.nullable(v.string()),
  linked_at: v.nullable(v.string()),
});
export const RelatedServices = v.array(RelatedService);

// Links to storage, misc items and external nodes; each answers the link plus the target's name and kind.
const linked = { service_id: v.number(), name: v.string(), kind: v.nullable(v.string()) };
export const StorageLinkCreate = v.object({ storage_id: Id, mount_path: OptionalText(1000) });
export const StorageLink = v.object({ ...linked, storage_id: v.number(), mount_path: v.nullable(v.string()) });
export const StorageLinks = v.array(StorageLink);
export const MiscLinkCreate = v.object({ misc_id: Id });
export const MiscLink = v.object({ ...linked, misc_id: v.number() });
export const MiscLinks = v.array(MiscLink);
export const ExternalDependencyCreate = v.object({ external_node_id: Id, description: OptionalText(2000) });
export const ExternalDependency = v.object({
  ...linked,
  id: v.number(),
  external_node_id: v.number(),
  description: v.nullable(v.string()),
});
export const ExternalDependencies = v.array(ExternalDependency);

export const CheckIpBody = v.object({
  ip_address: v.pipe(v.string(), v.trim(), v.ip("Must be an IPv4 or IPv6 address.")),
  exclude_service_id: v.optional(v.nullable(Id)),
});
export const IP_USER_TYPES = ["service", "compute_unit", "hardware", "ipam"] as const;
export const CheckIpResult = v.object({
  ip_address: v.string(),
  in_use: v.boolean(),
  conflicts: v.array(v.object({ type: v.picklist(IP_USER_TYPES), id: v.number(), name: v.string() })),
});

const Address = { id: v.number(), name: v.string(), ip_address: v.nullable(v.string()), status: v.string() };
export const ServiceDiscovery = v.object({
  service_id: v.number(),
  ip_address: v.nullable(v.string()),
  ports: v.array(PortShape),
  host: v.nullable(
    v.object({
      type: v.picklist(["compute_unit", "hardware"]),
      ...Address,
      kind: v.nullable(v.string()),
      hardware: v.nullable(v.object(Address)),
    }),
  ),
  ipam: v.array(
    v.object({
      id: v.number(),
      address: v.string(),
      network_id: v.nullable(v.number()),
      status: v.string(),
      hostname: v.nullable(v.string()),
      mac_address: v.nullable(v.string()),
      assigned_type: v.nullable(v.string()),
      assigned_id: v.nullable(v.number()),
    }),
  ),
  findings: v.array(
    v.object({
      result_id: v.number(),
      scan_job_id: v.number(),
      ip_address: v.string(),
      mac_address: v.nullable(v.string()),
      hostname: v.nullable(v.string()),
      vendor: v.nullable(v.string()),
      open_ports: v.array(v.looseObject({ port: v.number(), protocol: v.string() })),
      service_ports_open: v.array(v.number()),
      state: v.string(),
      merge_status: v.string(),
      seen_at: v.string(),
    }),
  ),
  note: v.string(),
});
