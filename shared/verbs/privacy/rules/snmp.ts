// SNMP answering the community "public" gives anyone the device's configuration, interfaces, ARP table
// and often routes. Known only when a discovery scan asked with the default community (a job without a
// community of its own asks with "public"): the device answered (hit) or did not.
import type { DeviceRule } from "./types.ts";

export const SNMP_RULES: DeviceRule[] = [
  {
    id: "snmp_public_community",
    title: 'SNMP answers the default community "public"',
    points: 10,
    severity: "warning",
    category: "snmp",
    remediation: {
      id: "snmp_v3",
      text: "Change the read community to a long random value or, better, switch to SNMPv3 with authentication, and allow SNMP only from the monitoring host.",
    },
    match: (d) =>
      d.snmp_public === true
        ? [
            {
              evidence: `SNMP on ${d.ip_address ?? d.name} answered the community "public"${d.snmp_sys_descr ? ` (sysDescr "${d.snmp_sys_descr.slice(0, 120)}")` : ""}`,
              port: 161,
            },
          ]
        : [],
  },
];
