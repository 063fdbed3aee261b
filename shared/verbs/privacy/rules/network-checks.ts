// Checks of the network as a whole. Discovery sees hosts and ports, not how names are resolved, so it
// cannot tell DNS tampering or a missing filter apart from a filtering upstream (the reference's "DNS
// tampering" and "no DNS filtering" rules): the DNS check says ok only when it sees a filtering resolver
// (Pi-hole, AdGuard Home, Technitium, NextDNS CLI) answering on the network, and unknown otherwise,
// never a guess. SNMP and port coverage say unknown until a scan has looked.
import type { DeviceFacts, NetworkCheck } from "./types.ts";
import { said } from "./types.ts";

const FILTERING_RESOLVER = /\b(pi-hole|pihole|adguard home|adguardhome|technitium dns|nextdns)\b/i;

function filteringResolvers(devices: DeviceFacts[]): string[] {
  return devices
    .filter((d) => d.ports.some((p) => FILTERING_RESOLVER.test(said(p))))
    .map((d) => `${d.name} (${d.ip_address ?? "no address"})`);
}

export const NETWORK_CHECKS: NetworkCheck[] = [
  {
    id: "dns_filtering",
    title: "DNS filtering",
    category: "dns",
    evaluate: (devices) => {
      const seen = filteringResolvers(devices);
      if (seen.length > 0)
        return { status: "ok", evidence: `A filtering resolver answers on the network: ${seen.slice(0, 5).join(", ")}.` };
      return {
        status: "unknown",
        evidence:
          "Discovery cannot tell whether DNS answers are filtered or tampered with: it saw no filtering resolver (Pi-hole, AdGuard Home, Technitium) and does not query resolvers itself.",
      };
    },
  },
  {
    id: "snmp_coverage",
    title: "SNMP default community tested",
    category: "snmp",
    evaluate: (devices) => {
      const asked = devices.filter((d) => d.snmp_public !== null);
      if (asked.length === 0)
        return {
          status: "unknown",
          evidence: "No discovery scan has asked any device with the SNMP default community yet (scan type snmp).",
        };
      const open = asked.filter((d) => d.snmp_public).length;
      // The devices that answered are findings of their own (snmp_public_community); this check only says how far the test reached.
      return {
        status: open > 0 ? "info" : "ok",
        evidence: `${asked.length} device(s) asked with the default community, ${open} answered.`,
      };
    },
  },
  {
    id: "port_scan_coverage",
    title: "Devices covered by a port scan",
    category: "coverage",
    evaluate: (devices) => {
      const scanned = devices.filter((d) => d.scanned).length;
      if (devices.length === 0) return { status: "unknown", evidence: "The inventory holds no hardware yet." };
      if (scanned === 0)
        return {
          status: "unknown",
          evidence: `None of the ${devices.length} device(s) has been port-scanned yet: the device rules had nothing to look at.`,
        };
      return {
        status: scanned === devices.length ? "ok" : "info",
        evidence: `${scanned} of ${devices.length} device(s) have been port-scanned.`,
      };
    },
  },
];
