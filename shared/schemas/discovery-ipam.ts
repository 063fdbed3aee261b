// POST /ip-check (which addresses and ports the inventory already holds) and POST /ipam/scan/{network_id}
// (spec/catalogue.tsv, groups discovery and ip-check).
import * as v from "valibot";
import { IdParam, Ref } from "./fields.ts";
import { Address } from "./networks.ts";

export const IP_CHECK_ENTITY_TYPES = ["hardware", "compute_unit", "service", "ip_address"] as const;

export const IpCheckBody = v.strictObject({
  ip: Address,
  ports: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          ip: v.optional(v.nullable(Address)),
          port: v.optional(
            v.nullable(
              v.pipe(
                v.number(),
                v.integer("Must be an integer."),
                v.minValue(1, "Must be 1 to 65535."),
                v.maxValue(65535, "Must be 1 to 65535."),
              ),
            ),
          ),
          protocol: v.optional(v.picklist(["tcp", "udp"], "Must be tcp or udp."), "tcp"),
          label: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(200)))),
        }),
      ),
      v.maxLength(100, "At most 100 ports per check."),
    ),
    [],
  ),
  exclude_entity_type: v.optional(v.nullable(v.picklist(IP_CHECK_ENTITY_TYPES, `Must be one of: ${IP_CHECK_ENTITY_TYPES.join(", ")}.`))),
  exclude_entity_id: v.optional(v.nullable(Ref)),
});

export const IpConflict = v.object({
  /** hardware | compute_unit | service, or ip_address for an IPAM record (reserved, allocated, dhcp). */
  entity_type: v.picklist(IP_CHECK_ENTITY_TYPES),
  entity_id: v.number(),
  entity_name: v.nullable(v.string()),
  conflicting_ip: v.string(),
  conflicting_port: v.nullable(v.number()),
  protocol: v.nullable(v.string()),
});

export const IpCheckResult = v.object({ conflicts: v.array(IpConflict) });

export const IpamScanParams = IdParam("network_id");
