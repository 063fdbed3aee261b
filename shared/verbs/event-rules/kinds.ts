// The inventory kinds an event rule may name (docs/adr/0488-inventory-event-rules.md), by the entity type
// the resource engine writes them under, with the table whose columns a rule's field condition may test.
// The columns come from the drizzle table of each kind (the inventory's object kinds, object-kinds.ts: indexing
// them by an event kind is what keeps the two lists in step), so a new column can be tested without a change here.
import { getTableColumns } from "drizzle-orm";
import { type EventAction, EVENT_KINDS, type EventKind } from "../../domain/event-rules.ts";
import { OBJECT_KINDS } from "../inventory/object-kinds.ts";

/** The engine's write verbs by the event they make. */
export const EVENT_OF_WRITE = { create: "created", update: "updated", delete: "deleted" } as const satisfies Record<string, EventAction>;

export function isEventKind(kind: string): kind is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(kind);
}

/** The fields a condition may test on each of `kinds`: those every one of them has. */
export function fieldsOf(kinds: EventKind[]): Set<string> {
  const [first, ...rest] = kinds.map((k) => Object.keys(getTableColumns(OBJECT_KINDS[k].table)));
  return new Set((first ?? []).filter((f) => rest.every((cols) => cols.includes(f))));
}
