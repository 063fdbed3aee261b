// Ports and cables (issue 33 item 2, docs/ports-and-cables.md): interfaces, front and rear ports, power
// ports and outlets on a node, the cables between two of them, and the cable trace.
import * as v from "valibot";
import { CABLE_STATUSES, ENDPOINT_KINDS, INTERFACE_TYPES, LENGTH_UNITS, VLAN_MODES } from "../domain/cabling/endpoints.ts";
import { Name, OptionalInt, OptionalNumber, OptionalText, patchBody, Ref, RefId, writeBody } from "./fields.ts";
import { IntFilter, listQuery } from "./list-query.ts";

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => v.picklist(values, `Must be one of: ${values.join(", ")}.`);
const Connector = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(50)));
const Watts = OptionalInt(0, 1_000_000);
const Mac = v.optional(
  v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/, "A MAC address is six hex pairs (aa:bb:cc:dd:ee:ff)."),
      v.toLowerCase(),
    ),
  ),
);
const BoolFilter = v.optional(v.picklist(["true", "false"], "Must be true or false."));

/** Every port kind's read shape has these: the node it is on, and the cable it holds. */
const onNode = {
  id: v.number(),
  hardware_id: v.number(),
  hardware_name: v.string(),
  name: v.string(),
  description: v.nullable(v.string()),
  /** The cable on this port, and what is at its other end. */
  cable_id: v.nullable(v.number()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
};
const portReadOnly = ["hardware_name", "cable_id", "connected_to"];

export const EndpointView = v.object({
  kind: v.picklist(ENDPOINT_KINDS),
  id: v.number(),
  name: v.string(),
  hardware_id: v.number(),
  hardware_name: v.string(),
});
const ConnectedTo = v.nullable(EndpointView);

/** A port's writes: hardware_id is given at creation and never moves (a PATCH carrying it ignores it). */
function portBodies<E extends v.ObjectEntries>(entries: E, readOnly: string[] = []) {
  const create = writeBody({ hardware_id: Ref, name: Name, description: OptionalText(2000), ...entries }, [...portReadOnly, ...readOnly]);
  const patch = patchBody({ name: Name, description: OptionalText(2000), ...entries }, [...portReadOnly, ...readOnly, "hardware_id"]);
  return { create, patch };
}

const portQuery = <F extends v.ObjectEntries>(filters: F) =>
  listQuery(["name", "created_at", "updated_at"], { hardware_id: IntFilter, ...filters });

// Interfaces
const interfaceBodies = portBodies(
  {
    type: v.optional(oneOf(INTERFACE_TYPES), "copper"),
    speed_mbps: OptionalInt(0, 10_000_000),
    mac_address: Mac,
    enabled: v.optional(v.boolean(), true),
    lag_id: RefId,
    vlan_mode: v.optional(v.nullable(oneOf(VLAN_MODES))),
    untagged_vlan_id: RefId,
    tagged_vlan_ids: v.optional(
      v.pipe(
        v.array(Ref),
        v.maxLength(4094),
        v.transform((ids) => [...new Set(ids)].sort((x, y) => x - y)),
      ),
    ),
  },
  ["lag_name", "members"],
);
export const InterfaceCreate = interfaceBodies.create;
export const InterfacePatch = interfaceBodies.patch;
export const Interface = v.object({
  ...onNode,
  type: oneOf(INTERFACE_TYPES),
  speed_mbps: v.nullable(v.number()),
  mac_address: v.nullable(v.string()),
  enabled: v.boolean(),
  lag_id: v.nullable(v.number()),
  lag_name: v.nullable(v.string()),
  vlan_mode: v.nullable(oneOf(VLAN_MODES)),
  untagged_vlan_id: v.nullable(v.number()),
  tagged_vlan_ids: v.array(v.number()),
  connected_to: ConnectedTo,
});
export const InterfaceListQuery = portQuery({ lag_id: IntFilter, type: v.optional(oneOf(INTERFACE_TYPES)), enabled: BoolFilter });

// Rear and front ports (a patch panel)
const rearBodies = portBodies({
  type: Connector,
  positions: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1, "1 to 1024 positions."), v.maxValue(1024, "1 to 1024 positions.")),
    1,
  ),
});
export const RearPortCreate = rearBodies.create;
export const RearPortPatch = rearBodies.patch;
export const RearPort = v.object({ ...onNode, type: v.string(), positions: v.number(), connected_to: ConnectedTo });
export const RearPortListQuery = portQuery({});

const frontBodies = portBodies(
  {
    type: Connector,
    rear_port_id: Ref,
    rear_position: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, "Positions start at 1."), v.maxValue(1024)), 1),
  },
  ["rear_port_name"],
);
export const FrontPortCreate = frontBodies.create;
export const FrontPortPatch = frontBodies.patch;
export const FrontPort = v.object({
  ...onNode,
  type: v.string(),
  rear_port_id: v.number(),
  rear_port_name: v.string(),
  rear_position: v.number(),
  connected_to: ConnectedTo,
});
export const FrontPortListQuery = portQuery({ rear_port_id: IntFilter });

// Power
const powerPortBodies = portBodies({ allocated_w: Watts, maximum_w: Watts });
export const PowerPortCreate = powerPortBodies.create;
export const PowerPortPatch = powerPortBodies.patch;
export const PowerPort = v.object({
  ...onNode,
  allocated_w: v.nullable(v.number()),
  maximum_w: v.nullable(v.number()),
  /** The outlet feeding it (the far end of its cable). */
  connected_to: ConnectedTo,
});
export const PowerPortListQuery = portQuery({});

const outletBodies = portBodies({});
export const PowerOutletCreate = outletBodies.create;
export const PowerOutletPatch = outletBodies.patch;
export const PowerOutlet = v.object({
  ...onNode,
  /** The power port it feeds (the far end of its cable). */
  connected_to: ConnectedTo,
});
export const PowerOutletListQuery = portQuery({});

// Cables
const cableWritable = {
  a_kind: oneOf(ENDPOINT_KINDS),
  a_id: Ref,
  b_kind: oneOf(ENDPOINT_KINDS),
  b_id: Ref,
  type: OptionalText(50),
  status: v.optional(oneOf(CABLE_STATUSES), "connected"),
  label: OptionalText(100),
  colour: OptionalText(50),
  length: OptionalNumber(0, 1_000_000),
  length_unit: v.optional(v.nullable(oneOf(LENGTH_UNITS))),
  description: OptionalText(2000),
};
const cableReadOnly = ["a", "b", "connection_id"];
export const CableCreate = writeBody(cableWritable, cableReadOnly);
export const CablePatch = patchBody(cableWritable, cableReadOnly);
export const Cable = v.object({
  id: v.number(),
  a_kind: oneOf(ENDPOINT_KINDS),
  a_id: v.number(),
  b_kind: oneOf(ENDPOINT_KINDS),
  b_id: v.number(),
  a: EndpointView,
  b: EndpointView,
  type: v.nullable(v.string()),
  status: oneOf(CABLE_STATUSES),
  label: v.nullable(v.string()),
  colour: v.nullable(v.string()),
  length: v.nullable(v.number()),
  length_unit: v.nullable(oneOf(LENGTH_UNITS)),
  description: v.nullable(v.string()),
  /** The node-to-node connection (GET /hardware/{id}/connections) this cable is, when its ends are on two nodes. */
  connection_id: v.nullable(v.number()),
  version: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
});
export const CableListQuery = listQuery(["id", "label", "created_at", "updated_at"], {
  hardware_id: IntFilter,
  connection_id: IntFilter,
  status: v.optional(oneOf(CABLE_STATUSES)),
});

// The trace
export const TraceCableView = v.object({
  id: v.number(),
  label: v.nullable(v.string()),
  type: v.nullable(v.string()),
  colour: v.nullable(v.string()),
  status: oneOf(CABLE_STATUSES),
  length: v.nullable(v.number()),
  length_unit: v.nullable(oneOf(LENGTH_UNITS)),
});
export const CableTrace = v.object({
  start: EndpointView,
  segments: v.array(v.object({ near: EndpointView, cable: TraceCableView, far: EndpointView })),
  /** endpoint, no_cable, open (stops at a panel port with nothing behind it), loop or too_long (bad data). */
  ended: v.picklist(["endpoint", "no_cable", "open", "loop", "too_long"]),
});

// Power
const Draw = { allocated_w: v.number(), maximum_w: v.number() };
export const HardwarePower = v.object({
  hardware_id: v.number(),
  /** What the node draws: the sum of its power ports. */
  draw: v.object(Draw),
  power_ports: v.array(
    v.object({ id: v.number(), name: v.string(), allocated_w: v.nullable(v.number()), maximum_w: v.nullable(v.number()) }),
  ),
  /** A PDU's outlets and the power port each feeds, with that port's draw. */
  outlets: v.array(
    v.object({
      id: v.number(),
      name: v.string(),
      feeds: v.nullable(EndpointView),
      allocated_w: v.nullable(v.number()),
      maximum_w: v.nullable(v.number()),
    }),
  ),
  /** The load on the node's outlets: what they feed draws. */
  load: v.object({ ...Draw, outlets_used: v.number(), outlets_total: v.number() }),
});
export const RackPower = v.object({
  rack_id: v.number(),
  ...Draw,
  nodes: v.array(v.object({ id: v.number(), name: v.string(), ...Draw })),
});

// LLDP neighbours proposed as cables
const ProposalPort = v.object({ id: v.number(), name: v.string(), hardware_id: v.number(), hardware_name: v.string() });
export const LldpCableProposals = v.object({
  job_id: v.number(),
  proposals: v.array(
    v.object({
      neighbor_id: v.number(),
      local_port_desc: v.nullable(v.string()),
      remote_sys_name: v.nullable(v.string()),
      remote_port_desc: v.nullable(v.string()),
      local: v.nullable(ProposalPort),
      remote: v.nullable(ProposalPort),
      /** ready (accept creates the cable), cabled, taken (an end holds another cable) or unmatched. */
      state: v.picklist(["ready", "cabled", "taken", "unmatched"]),
      reason: v.nullable(v.string()),
      cable_id: v.nullable(v.number()),
    }),
  ),
});
