// The one place a public change of an incident has its side effects (docs/adr/0456): an incident
// published, a published incident given an update, an incident resolved, and (for what caches the
// page, not for subscribers) a published incident's title/impact/affected edited or the incident
// deleted. Today it queues NOTIFY `status_pages` (delivered on commit) with the page id, for whatever
// serves or caches the page; subscriber notices belong here too (on published, updated and resolved),
// so every path (operator, automatic proposal) gets them alike. Never called for a draft's changes:
// nothing public happened.
import type { VerbScope } from "../../verb.ts";

export type IncidentChange = "published" | "updated" | "resolved" | "edited" | "deleted";

export function afterIncidentChange(s: VerbScope, change: { page_id: number; incident_id: number; kind: IncidentChange }): void {
  s.emit("status_pages", { type: "incident", change: change.kind, page_id: change.page_id, incident_id: change.incident_id });
}
