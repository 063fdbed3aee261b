// Incidents on the public status page and its history page (docs/adr/0456, 0457): title, impact,
// status, affected items' public names and the timeline, newest first. Every stored text is escaped;
// an update's body is the sanitised HTML of its Markdown (shared/domain/markdown.ts).
import { escapeHtml } from "../../shared/domain/notifications/message-text.ts";
import type { PublicIncidentShape } from "../../shared/schemas/status-page-incidents.ts";

export const INCIDENT_STATUS: Record<PublicIncidentShape["status"], string> = {
  investigating: "Investigating",
  identified: "Identified",
  monitoring: "Monitoring",
  resolved: "Resolved",
};
const IMPACT: Record<PublicIncidentShape["impact"], string> = {
  none: "No impact",
  minor: "Minor impact",
  major: "Major impact",
  critical: "Critical impact",
};
const at = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

export function renderIncident(i: PublicIncidentShape): string {
  const facts = [IMPACT[i.impact], i.resolved_at ? `resolved ${at(i.resolved_at)}` : `since ${at(i.started_at)}`];
  if (i.affected.length > 0) facts.push(`affects ${i.affected.join(", ")}`);
  const updates = i.updates
    .map(
      (u) =>
        `<li><div class="meta"><strong>${INCIDENT_STATUS[u.status]}</strong> · <time datetime="${escapeHtml(u.created_at)}">${at(u.created_at)}</time></div><div class="md">${u.html}</div></li>`,
    )
    .join("");
  return `<article class="card incident ${i.impact}" id="incident-${escapeHtml(i.key)}"><div class="row"><span class="name">${escapeHtml(i.title)}</span><span class="state">${INCIDENT_STATUS[i.status]}</span></div>
<div class="meta">${escapeHtml(facts.join(" · "))}</div><ol class="timeline">${updates}</ol></article>`;
}

/** The public URLs of a page's history and feeds (relative: they work on a custom domain too). */
export const historyLinks = (slug: string) => {
  const base = `/status/${encodeURIComponent(slug)}`;
  return { page: base, history: `${base}/history`, atom: `${base}/feed.atom`, rss: `${base}/feed.rss` };
};

/** The <link rel="alternate"> lines of a page's feeds, for its <head>. */
export function feedLinks(slug: string, title: string): string {
  const l = historyLinks(slug);
  const t = escapeHtml(`${title}: incidents`);
  return `<link rel="alternate" type="application/atom+xml" title="${t}" href="${l.atom}"><link rel="alternate" type="application/rss+xml" title="${t}" href="${l.rss}">`;
}
