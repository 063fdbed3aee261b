// Every device rule, in the order findings are listed, and the network checks.
import { DEFAULT_CREDENTIAL_RULES } from "./default-credentials.ts";
import { FILE_SHARING_RULES } from "./file-sharing.ts";
import { MANAGEMENT_RULES } from "./management.ts";
import { NETWORK_CHECKS } from "./network-checks.ts";
import { REMOTE_ACCESS_RULES } from "./remote-access.ts";
import { SNMP_RULES } from "./snmp.ts";
import type { DeviceRule } from "./types.ts";
import { UPNP_RULES } from "./upnp.ts";

export const DEVICE_RULES: readonly DeviceRule[] = [
  ...REMOTE_ACCESS_RULES,
  ...DEFAULT_CREDENTIAL_RULES,
  ...FILE_SHARING_RULES,
  ...UPNP_RULES,
  ...MANAGEMENT_RULES,
  ...SNMP_RULES,
];

export { NETWORK_CHECKS };

export const RULE_IDS: ReadonlySet<string> = new Set(DEVICE_RULES.map((r) => r.id));
