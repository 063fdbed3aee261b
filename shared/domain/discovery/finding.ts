// What a scan learned about one live host, whoever scanned it (the sidecar's engine, nmap, an agent's
// discovery.finding): the one shape the results verbs record, match against the inventory and merge.
import type { OpenPortRow } from "../../db/schema/discovery.ts";

export type OpenPort = OpenPortRow;

export interface HostFinding {
  ip_address: string;
  /** Lower-case, colon-separated (aa:bb:cc:dd:ee:ff), or null when no source gave one. */
  mac_address: string | null;
  hostname: string | null;
  open_ports: OpenPort[];
  /** A vendor a source named (nmap, SNMP); the OUI lookup fills it from the MAC when null. */
  vendor: string | null;
  /** A model and serial number the device announced (the passive listener); absent for scans. */
  model?: string | null;
  serial_number?: string | null;
  os_family: string | null;
  os_vendor: string | null;
  os_accuracy: number | null;
  snmp_sys_name: string | null;
  snmp_sys_descr: string | null;
  rtt_ms: number | null;
  /** Which methods saw the host: icmp, tcp, arp, dns, nmap, snmp, http, tls, banner, agent. */
  sources: string[];
}

/** A finding with every optional fact empty: sources fill in what they saw. */
export function emptyFinding(ip_address: string): HostFinding {
  return {
    ip_address,
    mac_address: null,
    hostname: null,
    open_ports: [],
    vendor: null,
    os_family: null,
    os_vendor: null,
    os_accuracy: null,
    snmp_sys_name: null,
    snmp_sys_descr: null,
    rtt_ms: null,
    sources: [],
  };
}
