// What a privacy rule is and what it looks at (issue 17 item 3; spec/catalogue.tsv, group privacy and threat analysis, the original's "Device rule
// examples"): per hardware node, what discovery last saw there (open ports with their banners, web page
// titles and TLS certificates, whether SNMP answered the default community) beside the inventory's own
// fields (role, vendor, model). Rules are pure: the same facts always give the same findings.
import type { OpenPortRow } from "../../../db/schema/discovery.ts";

export type Severity = "info" | "warning" | "critical";

/** What the analysis knows about one hardware node. */
export interface DeviceFacts {
  hardware_id: number;
  name: string;
  role: string | null;
  vendor: string | null;
  model: string | null;
  ip_address: string | null;
  /** The open ports of the newest port scan that saw the node; empty when none did. */
  ports: OpenPortRow[];
  /** Whether any port scan has seen the node (false: the rules have nothing to look at). */
  scanned: boolean;
  /** SNMP answered the default community "public" (true), a scan asked with it and got no answer (false), or nobody asked (null). */
  snmp_public: boolean | null;
  snmp_sys_descr: string | null;
}

export interface Remediation {
  id: string;
  text: string;
}

/** One reason a rule fired on a device: a sentence naming what was seen, and the port it was seen on. */
export interface RuleHit {
  evidence: string;
  port: number | null;
}

export interface DeviceRule {
  id: string;
  title: string;
  /** Points deducted from 100 (before the gateway weighting). */
  points: number;
  severity: Severity;
  category: string;
  remediation: Remediation;
  /** Only gateways (role gateway, router or firewall) are looked at. */
  gatewayOnly?: boolean;
  /** The hits of this rule on `d`, empty when it does not apply. */
  match(d: DeviceFacts): RuleHit[];
}

/** A network-wide check without deductions of its own: honest about what discovery cannot tell. */
export interface NetworkCheck {
  id: string;
  title: string;
  category: string;
  evaluate(devices: DeviceFacts[]): { status: "ok" | "info" | "warning" | "critical" | "unknown"; evidence: string };
}

/** Where a port was seen, for evidence: `23/tcp on 10.0.0.1`. */
export const where = (d: DeviceFacts, p: OpenPortRow): string => `${p.port}/${p.protocol ?? "tcp"} on ${d.ip_address ?? d.name}`;

/** What a port said about itself (service name, banner, page title, Server header), for pattern checks. */
export const said = (p: OpenPortRow): string => [p.service, p.banner, p.http_title, p.server].filter((x): x is string => !!x).join(" | ");

/** A hit per open port the predicate accepts, with the evidence sentence `describe` makes. */
export function portHits(d: DeviceFacts, accept: (p: OpenPortRow) => boolean, describe: (p: OpenPortRow) => string): RuleHit[] {
  return d.ports.filter(accept).map((p) => ({ evidence: describe(p), port: p.port }));
}

/** The banner or title in quotes for evidence, when there is one. */
export const quoted = (p: OpenPortRow): string => {
  const text = p.banner ?? p.http_title;
  return text ? ` ("${text.slice(0, 120)}")` : "";
};

const GATEWAY_ROLES = new Set(["gateway", "router", "firewall"]);

export const isGateway = (d: Pick<DeviceFacts, "role">): boolean => GATEWAY_ROLES.has((d.role ?? "").trim().toLowerCase());
