// The vocabulary of event rules (docs/adr/0488-inventory-event-rules.md): the inventory kinds a rule may
// name, by the entity type the resource engine writes them under, and the changes it may send.
export const EVENT_KINDS = [
  "hardware",
  "service",
  "compute_unit",
  "storage",
  "network",
  "vlan",
  "ip_address",
  "site",
  "cluster",
  "external_node",
  "misc",
  "environment",
  "category",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const EVENT_ACTIONS = ["created", "updated", "deleted"] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];

export const CONDITION_OPS = ["eq", "neq", "in", "contains"] as const;
