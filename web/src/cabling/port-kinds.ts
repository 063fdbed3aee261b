// The port kinds as the console edits them (docs/ports-and-cables.md): each kind's collection, the
// fields of its form and what a row shows. Field values are strings in a form and typed in the body.
import { ENDPOINT_PATHS, type EndpointKind, INTERFACE_TYPES, VLAN_MODES } from "../../../shared/domain/cabling/endpoints.ts";
import { i18nKey } from "../i18n/i18n.ts";

export type FieldKind = "text" | "number" | "select" | "check" | "ids" | "sibling";

export interface PortField {
  name: string;
  label: string;
  kind: FieldKind;
  options?: readonly string[];
  /** For "sibling": the kind of the node's other ports it picks from (a lag, a rear port). */
  sibling?: EndpointKind;
  /** Only siblings whose field equals this (type = lag). */
  siblingWhere?: [string, string];
}

export interface PortKindSpec {
  kind: EndpointKind;
  path: string;
  title: string;
  noun: string;
  fields: PortField[];
  /** Fields a row shows beside its name. */
  show: string[];
}

const name: PortField = { name: "name", label: i18nKey("cabling:field.name"), kind: "text" };
const connector: PortField = { name: "type", label: i18nKey("cabling:field.connector"), kind: "text" };

export const PORT_KINDS: Record<EndpointKind, PortKindSpec> = {
  interface: {
    kind: "interface",
    path: ENDPOINT_PATHS.interface,
    title: i18nKey("cabling:kind.interface.title"),
    noun: i18nKey("cabling:kind.interface.noun"),
    fields: [
      name,
      { name: "type", label: i18nKey("cabling:field.type"), kind: "select", options: INTERFACE_TYPES },
      { name: "speed_mbps", label: i18nKey("cabling:field.speed"), kind: "number" },
      { name: "mac_address", label: i18nKey("cabling:field.mac"), kind: "text" },
      { name: "enabled", label: i18nKey("cabling:field.enabled"), kind: "check" },
      { name: "lag_id", label: i18nKey("cabling:field.lag"), kind: "sibling", sibling: "interface", siblingWhere: ["type", "lag"] },
      { name: "vlan_mode", label: i18nKey("cabling:field.vlanMode"), kind: "select", options: ["", ...VLAN_MODES] },
      { name: "untagged_vlan_id", label: i18nKey("cabling:field.untaggedVlan"), kind: "number" },
      { name: "tagged_vlan_ids", label: i18nKey("cabling:field.taggedVlans"), kind: "ids" },
    ],
    show: ["type", "speed_mbps", "lag_name", "vlan_mode"],
  },
  rear_port: {
    kind: "rear_port",
    path: ENDPOINT_PATHS.rear_port,
    title: i18nKey("cabling:kind.rear_port.title"),
    noun: i18nKey("cabling:kind.rear_port.noun"),
    fields: [name, connector, { name: "positions", label: i18nKey("cabling:field.positions"), kind: "number" }],
    show: ["type", "positions"],
  },
  front_port: {
    kind: "front_port",
    path: ENDPOINT_PATHS.front_port,
    title: i18nKey("cabling:kind.front_port.title"),
    noun: i18nKey("cabling:kind.front_port.noun"),
    fields: [
      name,
      connector,
      { name: "rear_port_id", label: i18nKey("cabling:field.rearPort"), kind: "sibling", sibling: "rear_port" },
      { name: "rear_position", label: i18nKey("cabling:field.rearPosition"), kind: "number" },
    ],
    show: ["type", "rear_port_name", "rear_position"],
  },
  power_port: {
    kind: "power_port",
    path: ENDPOINT_PATHS.power_port,
    title: i18nKey("cabling:kind.power_port.title"),
    noun: i18nKey("cabling:kind.power_port.noun"),
    fields: [
      name,
      { name: "allocated_w", label: i18nKey("cabling:field.allocated"), kind: "number" },
      { name: "maximum_w", label: i18nKey("cabling:field.maximum"), kind: "number" },
    ],
    show: ["allocated_w", "maximum_w"],
  },
  power_outlet: {
    kind: "power_outlet",
    path: ENDPOINT_PATHS.power_outlet,
    title: i18nKey("cabling:kind.power_outlet.title"),
    noun: i18nKey("cabling:kind.power_outlet.noun"),
    fields: [name],
    show: [],
  },
};

/** The sections of a node's page and the kinds in each. */
export const PORT_SECTIONS = [
  { title: i18nKey("cabling:section.interfaces"), kinds: ["interface"] },
  { title: i18nKey("cabling:section.ports"), kinds: ["rear_port", "front_port"] },
  { title: i18nKey("cabling:section.power"), kinds: ["power_port", "power_outlet"] },
] as const satisfies readonly { title: string; kinds: readonly EndpointKind[] }[];

type Row = Record<string, unknown>;

/** A row's values as form strings. */
export function draftOf(spec: PortKindSpec, row: Row | undefined): Record<string, string> {
  return Object.fromEntries(
    spec.fields.map((f) => {
      const v = row?.[f.name];
      if (f.kind === "check") return [f.name, v === false ? "" : "on"];
      if (f.kind === "ids") return [f.name, Array.isArray(v) ? v.join(", ") : ""];
      if (f.kind === "select" && v == null) return [f.name, f.options?.[0] ?? ""];
      return [f.name, v == null ? "" : String(v)];
    }),
  );
}

/** The form's strings as a body: empty numbers and choices are null, lists of ids are numbers. */
export function bodyOf(spec: PortKindSpec, draft: Record<string, string>): Row {
  const out: Row = {};
  for (const f of spec.fields) {
    const v = (draft[f.name] ?? "").trim();
    if (f.kind === "check") out[f.name] = v !== "";
    else if (f.kind === "number" || f.kind === "sibling") out[f.name] = v === "" ? null : Number(v);
    else if (f.kind === "ids")
      out[f.name] =
        v === ""
          ? []
          : v
              .split(/[\s,]+/)
              .filter(Boolean)
              .map(Number);
    else if (f.kind === "select" && v === "") out[f.name] = null;
    else if (f.name === "name" || f.kind === "select") out[f.name] = v;
    else out[f.name] = v === "" ? null : v;
  }
  // A connector left empty keeps the kind's default rather than sending null to a required column.
  if (spec.fields.some((f) => f.name === "type" && f.kind === "text") && out.type === null) delete out.type;
  if (out.positions === null) delete out.positions;
  if (out.rear_position === null) delete out.rear_position;
  return out;
}

export const CABLE_STATUS_LABELS = {
  connected: i18nKey("cabling:status.connected"),
  planned: i18nKey("cabling:status.planned"),
  decommissioning: i18nKey("cabling:status.decommissioning"),
} as const;

/** Why a trace ends (CableTrace.ended). */
export const TRACE_ENDS: Record<string, string> = {
  endpoint: i18nKey("cabling:ended.endpoint"),
  no_cable: i18nKey("cabling:ended.no_cable"),
  open: i18nKey("cabling:ended.open"),
  loop: i18nKey("cabling:ended.loop"),
  too_long: i18nKey("cabling:ended.too_long"),
};
