// What a cable may join (docs/ports-and-cables.md): the five endpoint kinds, which of them carry data
// and which carry power, and the rule that a cable joins two of the same family (a power port to an
// interface is refused). Shared with the console, which offers only compatible far ends.
export const ENDPOINT_KINDS = ["interface", "front_port", "rear_port", "power_port", "power_outlet"] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

export const CABLE_STATUSES = ["connected", "planned", "decommissioning"] as const;
export const LENGTH_UNITS = ["m", "cm", "km", "ft", "in"] as const;
export const INTERFACE_TYPES = ["copper", "fibre", "wireless", "virtual", "lag"] as const;
export const VLAN_MODES = ["access", "tagged", "tagged-all"] as const;

/** The URL path of each kind's collection (/api/v1/<path>). */
export const ENDPOINT_PATHS: Readonly<Record<EndpointKind, string>> = {
  interface: "interfaces",
  front_port: "front-ports",
  rear_port: "rear-ports",
  power_port: "power-ports",
  power_outlet: "power-outlets",
};

export const ENDPOINT_LABELS: Readonly<Record<EndpointKind, string>> = {
  interface: "Interface",
  front_port: "Front port",
  rear_port: "Rear port",
  power_port: "Power port",
  power_outlet: "Power outlet",
};

const FAMILY: Readonly<Record<EndpointKind, "data" | "power">> = {
  interface: "data",
  front_port: "data",
  rear_port: "data",
  power_port: "power",
  power_outlet: "power",
};

/**
 * Why a cable cannot join these two kinds, or null when it can: data ends (interfaces and patch-panel
 * ports) join each other, and power joins a power port to a power outlet only (a PDU feeds a device).
 * A wireless or virtual interface takes no cable.
 */
export function incompatibility(
  a: { kind: EndpointKind; interfaceType?: string | null | undefined },
  b: { kind: EndpointKind; interfaceType?: string | null | undefined },
): string | null {
  if (FAMILY[a.kind] !== FAMILY[b.kind])
    return `A cable cannot join a ${ENDPOINT_LABELS[a.kind].toLowerCase()} to a ${ENDPOINT_LABELS[b.kind].toLowerCase()}.`;
  if (FAMILY[a.kind] === "power" && a.kind === b.kind)
    return `A power cable joins a power outlet to a power port, not two ${ENDPOINT_LABELS[a.kind].toLowerCase()}s.`;
  for (const e of [a, b])
    if (e.kind === "interface" && (e.interfaceType === "wireless" || e.interfaceType === "virtual" || e.interfaceType === "lag"))
      return `A ${e.interfaceType} interface takes no cable.`;
  return null;
}
