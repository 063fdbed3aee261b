// The inventory kinds a monitor (or a maintenance window) can point at: each one's label, the group its
// search picker searches and the field holding its address (the monitor form fills an empty host from it).
import type { RefSource } from "../components/ref-picker.tsx";
import { GROUPS } from "../inventory/groups.ts";

export const TARGETS: Record<string, { label: string; source: RefSource; address: string }> = {
  hardware: { label: "Hardware node", source: GROUPS.hardware, address: "ip_address" },
  compute_unit: { label: "Compute unit", source: GROUPS.compute, address: "ip_address" },
  service: { label: "Service", source: GROUPS.services, address: "ip_address" },
  external_node: { label: "External node", source: GROUPS.external, address: "ip_address" },
  ip: { label: "IP address", source: GROUPS.ipam, address: "address" },
};
