// The inventory kinds a monitor (or a maintenance window) can point at: each one's label, the group its
// search picker searches (`label` is a catalogue key: `t(label)`) and the field holding its address (the monitor form fills an empty host from it).
import type { RefSource } from "../components/ref-picker.tsx";
import { GROUPS } from "../inventory/groups.ts";
import { i18nKey } from "../i18n/i18n.ts";

export const TARGETS: Record<string, { label: string; source: RefSource; address: string }> = {
  hardware: { label: i18nKey("monitoring:kind.hardware"), source: GROUPS.hardware, address: "ip_address" },
  compute_unit: { label: i18nKey("monitoring:kind.compute"), source: GROUPS.compute, address: "ip_address" },
  service: { label: i18nKey("monitoring:kind.service"), source: GROUPS.services, address: "ip_address" },
  external_node: { label: i18nKey("monitoring:kind.external"), source: GROUPS.external, address: "ip_address" },
  ip: { label: i18nKey("monitoring:kind.ip"), source: GROUPS.ipam, address: "address" },
};
