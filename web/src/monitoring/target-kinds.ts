// The inventory kinds a monitor (or a maintenance window) can point at: each one's label, the group its
// search picker searches (`label` is a catalogue key: `t(label)`) and the field holding its address (the monitor form fills an empty host from it).
import type { RefSource } from "../components/ref-picker.tsx";
import { GROUPS } from "../inventory/groups.ts";
import { i18nKey, t } from "../i18n/i18n.ts";

export const TARGETS: Record<string, { label: string; source: RefSource; address: string }> = {
  hardware: { label: i18nKey("monitoring:kind.hardware"), source: GROUPS.hardware, address: "ip_address" },
  compute_unit: { label: i18nKey("monitoring:kind.compute"), source: GROUPS.compute, address: "ip_address" },
  service: { label: i18nKey("monitoring:kind.service"), source: GROUPS.services, address: "ip_address" },
  external_node: { label: i18nKey("monitoring:kind.external"), source: GROUPS.external, address: "ip_address" },
  ip: { label: i18nKey("monitoring:kind.ip"), source: GROUPS.ipam, address: "address" },
};

/** What a monitor's (or window's) target type is called inside a sentence ("hardware node"); an unknown type as the API gives it. */
const TARGET_NOUN: Record<string, string> = {
  hardware: i18nKey("monitoring:target.hardware"),
  compute_unit: i18nKey("monitoring:target.compute"),
  service: i18nKey("monitoring:target.service"),
  external_node: i18nKey("monitoring:target.external"),
  ip: i18nKey("monitoring:target.ip"),
};
export function targetNoun(type: string): string {
  const key = TARGET_NOUN[type];
  return key ? t(key) : type;
}
