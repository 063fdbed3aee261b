// What one scan does: the job row (targets re-checked, SNMP community opened) becomes a ScanPlan, and
// runScan needs nothing else. The engine's fixed knobs (windows, per-connect timeout) live here too.
import type { TargetSet } from "../../../shared/domain/discovery/targets.ts";

export interface ScanPlan {
  targets: TargetSet;
  /** Normalised scan types (scan-types.ts); the engine acts on icmp, tcp, dns, arp, banner, http, nmap, snmp. */
  scan_types: string[];
  tcp_ports: number[];
  /** Bounds each phase of one host: its discovery (ping, first ports), then its other ports and enrichment together. */
  host_timeout_ms: number;
  /** Open sockets (and ping processes) at once, over all hosts. */
  max_sockets: number;
  max_concurrent_hosts: number;
  nmap_arguments: string | null;
  snmp: { community: string; port: number; version: string } | null;
}

/** Settings a deployment (or a test) may change; none is needed. */
export interface EngineOptions {
  /** DNS servers for reverse lookups ("127.0.0.53:5353"); the system's when absent. */
  dnsServers?: string[];
  /** Where the neighbour table is read (default /proc/net/arp). */
  arpTablePath?: string;
  pingCommand?: string;
  nmapCommand?: string;
  /** Pings in flight (each also holds a socket of max_sockets). Default 128, in shells of 64 (net/ping-batch.ts). */
  maxPings?: number;
  /** One TCP connect's timeout, capped by the host's remaining time. Default 1000 ms. */
  connectTimeoutMs?: number;
  /** How long a banner grab waits for a greeting, then for the HTTP probe's answer. Default 400 ms. */
  bannerWindowMs?: number;
}

export const DEFAULT_MAX_PINGS = 128;
export const DEFAULT_CONNECT_TIMEOUT_MS = 1000;
export const DEFAULT_BANNER_WINDOW_MS = 400;

/** Ports where a web server usually listens, TLS ones first checked with a handshake. */
export const HTTP_PORTS = new Set([80, 443, 8080, 8443]);
export const TLS_PORTS = new Set([443, 465, 636, 853, 993, 995, 5986, 6443, 8443, 9443]);

export function has(plan: Pick<ScanPlan, "scan_types">, type: string): boolean {
  return plan.scan_types.includes(type);
}
