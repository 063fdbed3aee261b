// Ports and cables (issue 33 item 2, docs/ports-and-cables.md): a node's interfaces, its patch-panel
// front and rear ports, its power ports and (a PDU's) power outlets, and the cables between two of them.
// A cable names its ends by kind and id (a_kind/a_id, b_kind/b_id): the five port kinds are five tables,
// so the ends carry no foreign key; deleting a port or its node deletes the cable on it (the verbs do it,
// audited). One cable per endpoint: the unique indexes hold per side, the cable verbs check across sides
// under a transaction lock (ADR 0492).
import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, check, doublePrecision, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./columns.ts";
import { hardware, hardwareConnections } from "./inventory.ts";

const KINDS = "('interface', 'front_port', 'rear_port', 'power_port', 'power_outlet')";
const versioned = { version: integer("version").notNull().default(1) };
const onNode = () =>
  integer("hardware_id")
    .notNull()
    .references(() => hardware.id, { onDelete: "cascade" });

export const interfaces = pgTable(
  "interfaces",
  {
    id: serial("id").primaryKey(),
    hardware_id: onNode(),
    name: text("name").notNull(),
    /** copper, fibre, wireless, virtual, or lag (an aggregate other interfaces of the node are members of). */
    type: text("type").notNull().default("copper"),
    speed_mbps: integer("speed_mbps"),
    mac_address: text("mac_address"),
    enabled: boolean("enabled").notNull().default(true),
    /** The lag-type interface of the same node this one is a member of. */
    lag_id: integer("lag_id").references((): AnyPgColumn => interfaces.id, { onDelete: "set null" }),
    /** access (untagged VLAN only), tagged (untagged + tagged VLANs), tagged-all (every VLAN); null: not a switch port. */
    vlan_mode: text("vlan_mode"),
    /** VLAN records (vlans.id), not tags. */
    untagged_vlan_id: integer("untagged_vlan_id"),
    tagged_vlan_ids: integer("tagged_vlan_ids").array().notNull().default(sql`'{}'::integer[]`),
    description: text("description"),
    ...versioned,
    ...timestamps,
  },
  (t) => [
    uniqueIndex("interfaces_node_name_idx").on(t.hardware_id, t.name),
    index("interfaces_lag_idx").on(t.lag_id),
    index("interfaces_lower_name_idx").on(sql`lower(${t.name})`),
    check("interfaces_type", sql`${t.type} in ('copper', 'fibre', 'wireless', 'virtual', 'lag')`),
    check("interfaces_vlan_mode", sql`${t.vlan_mode} in ('access', 'tagged', 'tagged-all')`),
    check("interfaces_not_own_lag", sql`${t.lag_id} <> ${t.id}`),
  ],
);

export const rearPorts = pgTable(
  "rear_ports",
  {
    id: serial("id").primaryKey(),
    hardware_id: onNode(),
    name: text("name").notNull(),
    /** Connector: 8p8c, lc, sc, mpo, ... (free text). */
    type: text("type").notNull().default("8p8c"),
    /** How many front ports it carries (an MPO trunk carries several). */
    positions: integer("positions").notNull().default(1),
    description: text("description"),
    ...versioned,
    ...timestamps,
  },
  (t) => [
    uniqueIndex("rear_ports_node_name_idx").on(t.hardware_id, t.name),
    check("rear_ports_positions", sql`${t.positions} between 1 and 1024`),
  ],
);

export const frontPorts = pgTable(
  "front_ports",
  {
    id: serial("id").primaryKey(),
    hardware_id: onNode(),
    name: text("name").notNull(),
    type: text("type").notNull().default("8p8c"),
    /** The rear port of the same node it maps to, at rear_position (1..the rear port's positions). */
    rear_port_id: integer("rear_port_id")
      .notNull()
      .references(() => rearPorts.id, { onDelete: "cascade" }),
    rear_position: integer("rear_position").notNull().default(1),
    description: text("description"),
    ...versioned,
    ...timestamps,
  },
  (t) => [
    uniqueIndex("front_ports_node_name_idx").on(t.hardware_id, t.name),
    uniqueIndex("front_ports_rear_position_idx").on(t.rear_port_id, t.rear_position),
  ],
);

export const powerPorts = pgTable(
  "power_ports",
  {
    id: serial("id").primaryKey(),
    hardware_id: onNode(),
    name: text("name").notNull(),
    /** What the node draws through it: allocated (typical) and maximum, in watts. */
    allocated_w: integer("allocated_w"),
    maximum_w: integer("maximum_w"),
    description: text("description"),
    ...versioned,
    ...timestamps,
  },
  (t) => [uniqueIndex("power_ports_node_name_idx").on(t.hardware_id, t.name)],
);

export const powerOutlets = pgTable(
  "power_outlets",
  {
    id: serial("id").primaryKey(),
    /** The PDU (a node with outlets). */
    hardware_id: onNode(),
    name: text("name").notNull(),
    description: text("description"),
    ...versioned,
    ...timestamps,
  },
  (t) => [uniqueIndex("power_outlets_node_name_idx").on(t.hardware_id, t.name)],
);

export const cables = pgTable(
  "cables",
  {
    id: serial("id").primaryKey(),
    /** interface, front_port, rear_port, power_port or power_outlet. */
    a_kind: text("a_kind").notNull(),
    a_id: integer("a_id").notNull(),
    b_kind: text("b_kind").notNull(),
    b_id: integer("b_id").notNull(),
    /** cat6, smf, dac, power, ... or a migrated connection's type (free text). */
    type: text("type"),
    status: text("status").notNull().default("connected"),
    label: text("label"),
    colour: text("colour"),
    length: doublePrecision("length"),
    length_unit: text("length_unit"),
    description: text("description"),
    /** The node-to-node connection this cable is (hardware_connections stays the topology's edge, ADR 0493). */
    connection_id: integer("connection_id").references(() => hardwareConnections.id, { onDelete: "cascade" }),
    ...versioned,
    ...timestamps,
  },
  (t) => [
    uniqueIndex("cables_a_end_idx").on(t.a_kind, t.a_id),
    uniqueIndex("cables_b_end_idx").on(t.b_kind, t.b_id),
    index("cables_connection_idx").on(t.connection_id),
    check("cables_kinds", sql`${t.a_kind} in ${sql.raw(KINDS)} and ${t.b_kind} in ${sql.raw(KINDS)}`),
    check("cables_status", sql`${t.status} in ('connected', 'planned', 'decommissioning')`),
    check("cables_length_unit", sql`${t.length_unit} in ('m', 'cm', 'km', 'ft', 'in')`),
    check("cables_not_looped", sql`not (${t.a_kind} = ${t.b_kind} and ${t.a_id} = ${t.b_id})`),
  ],
);
