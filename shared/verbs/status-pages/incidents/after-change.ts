// The one place a public change of an incident has its side effects (docs/adr/0456): an incident
// published, a published incident given an update, an incident resolved, and (for what caches the
// page, not for subscribers) a published incident's title/impact/affected edited or the incident
// deleted. It queues NOTIFY `status_pages` (delivered on commit) with the page id, for whatever serves
// or caches the page, and, on published, updated and resolved, a notice to the page's confirmed
// subscribers (docs/adr/0458) in the same transaction, so every path (operator, automatic proposal)
// tells them alike and only what committed. Never called for a draft's changes: nothing public happened.
import { desc, eq } from "drizzle-orm";
import { statusPageIncidents, statusPageIncidentUpdates, statusPages } from "../../../db/schema/index.ts";
import { renderSafeMarkdown } from "../../../domain/markdown.ts";
import { noticeSubscribers } from "../subscriber-notices.ts";
import type { VerbScope } from "../../verb.ts";
import { escapeHtml } from "../../../domain/notifications/message-text.ts";

export type IncidentChange = "published" | "updated" | "resolved" | "edited" | "deleted";

const STATUS_LABEL: Record<string, string> = {
  investigating: "Investigating",
  identified: "Identified",
  monitoring: "Monitoring",
  resolved: "Resolved",
};

export async function afterIncidentChange(
  s: VerbScope,
  change: { page_id: number; incident_id: number; kind: IncidentChange },
): Promise<void> {
  s.emit("status_pages", { type: "incident", change: change.kind, page_id: change.page_id, incident_id: change.incident_id });
  if (change.kind === "edited" || change.kind === "deleted") return;
  const [incident] = await s.tx
    .select({ title: statusPageIncidents.title, status: statusPageIncidents.status, page_title: statusPages.title })
    .from(statusPageIncidents)
    .innerJoin(statusPages, eq(statusPages.id, statusPageIncidents.page_id))
    .where(eq(statusPageIncidents.id, change.incident_id));
  if (!incident) return;
  const [latest] = await s.tx
    .select({ body: statusPageIncidentUpdates.body })
    .from(statusPageIncidentUpdates)
    .where(eq(statusPageIncidentUpdates.incident_id, change.incident_id))
    .orderBy(desc(statusPageIncidentUpdates.created_at), desc(statusPageIncidentUpdates.id))
    .limit(1);
  const what = change.kind === "published" ? "New incident" : (STATUS_LABEL[incident.status] ?? incident.status);
  const body = latest?.body ?? "";
  await noticeSubscribers(s, {
    pageId: change.page_id,
    subject: `${incident.page_title}: ${incident.title} (${what})`,
    text: `${what}: ${incident.title}${body ? `\n\n${body}` : ""}`,
    // The update's Markdown is rendered and sanitised as on the page.
    html: `<p><strong>${escapeHtml(what)}</strong>: ${escapeHtml(incident.title)}</p>${body ? renderSafeMarkdown(body) : ""}`,
  });
}
