// Most rules are "this service is reachable": a port number or what the port said about itself (nmap's
// service name, a banner, a page title). One builder for them keeps each family's file a table.
import type { OpenPortRow } from "../../../db/schema/discovery.ts";
import { type DeviceRule, portHits, quoted, said, where } from "./types.ts";

export interface PortRuleSpec extends Omit<DeviceRule, "match"> {
  /** Port numbers that mean the service (TCP unless `protocol` says otherwise). */
  ports: number[];
  /** What a port on any number says when it runs the service (service name, banner or title). */
  says?: RegExp;
  /** What the service is called in evidence. */
  label: string;
}

export function portRule(spec: PortRuleSpec): DeviceRule {
  const { ports, says, label, ...rule } = spec;
  const accept = (p: OpenPortRow) => ports.includes(p.port) || says?.test(said(p)) === true;
  return { ...rule, match: (d) => portHits(d, accept, (p) => `${label} reachable at ${where(d, p)}${quoted(p)}`) };
}
