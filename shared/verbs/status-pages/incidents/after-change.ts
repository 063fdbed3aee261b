// The one place a public change of an incident has its side effects (docs/adr/0456): an incident
// published, a published incident given an update, an incident resolved. Today it queues NOTIFY
// `status_pages` (delivered on commit) with the page id, for whatever serves or caches the page;
// subscriber notices belong here too, so every path (operator, automatic proposal) gets them alike.
// Never called for a draft's changes: nothing public happened.
import type { VerbScope } from "../../verb.ts";

export type IncidentChange = "published" | "updated" | "resolved";

export function afterIncidentChange(s: VerbScope, change: { page_id: number; incident_id: number; kind: IncidentChange }): void {
  s.emit("status_pages", { type: "incident", change: change.kind, page_id: change.page_id, incident_id: change.incident_id });
}
