// Each endpoint kind's table, and a cable's two ends as references.
import { type cables, frontPorts, interfaces, powerOutlets, powerPorts, rearPorts } from "../../../db/schema/index.ts";
import type { EndpointKind } from "../../../domain/cabling/endpoints.ts";
import type { EndpointRef } from "../../../domain/cabling/trace.ts";

export const ENDPOINT_TABLES = {
  interface: interfaces,
  front_port: frontPorts,
  rear_port: rearPorts,
  power_port: powerPorts,
  power_outlet: powerOutlets,
} as const;

export type CableRow = typeof cables.$inferSelect;

export const endpointKey = (e: EndpointRef) => `${e.kind}:${e.id}`;
export const endsOf = (c: CableRow): [EndpointRef, EndpointRef] => [
  { kind: c.a_kind as EndpointKind, id: c.a_id },
  { kind: c.b_kind as EndpointKind, id: c.b_id },
];
