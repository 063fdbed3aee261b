// The Atom and RSS feeds of a status page's published incidents (docs/adr/0457), built with the `feed`
// library (well kept, escapes and formats both dialects; no hand-made XML here). One entry per incident,
// its content the whole timeline (sanitised HTML), updated with its latest update, so a feed reader
// shows an incident again when it moves on. Every date is from the data: the same data, the same bytes
// (the answer's ETag depends on it).
import { Feed } from "feed";
import type { StatusPageHistoryShape } from "../../shared/schemas/status-page-incidents.ts";
import { escapeHtml } from "../../shared/domain/notifications/message-text.ts";
import { historyLinks, INCIDENT_STATUS } from "./render-incidents.ts";

export function incidentFeed(h: StatusPageHistoryShape, origin: string): Feed {
  const links = historyLinks(h.page.slug);
  const url = (path: string) => `${origin}${path}`;
  const latest = Math.max(Date.parse(h.page.updated_at), ...h.items.map((i) => Date.parse(i.updated_at)));
  const feed = new Feed({
    title: `${h.page.title}: incidents`,
    description: h.page.description ?? `Incidents of ${h.page.title}`,
    id: url(links.history),
    link: url(links.history),
    copyright: h.page.footer_text ?? "",
    updated: new Date(latest),
    generator: "status page",
    feedLinks: { atom: url(links.atom), rss: url(links.rss) },
  });
  for (const i of h.items) {
    const timeline = i.updates
      .map((u) => `<p><strong>${INCIDENT_STATUS[u.status]}</strong> (${escapeHtml(u.created_at)})</p>${u.html}`)
      .join("\n");
    const affected = i.affected.length > 0 ? `<p>Affects: ${escapeHtml(i.affected.join(", "))}</p>` : "";
    feed.addItem({
      title: `${i.title} (${INCIDENT_STATUS[i.status]})`,
      id: url(`${links.history}#incident-${i.key}`),
      link: url(`${links.history}#incident-${i.key}`),
      date: new Date(i.updated_at),
      published: new Date(i.started_at),
      description: `${INCIDENT_STATUS[i.status]}: ${i.title}`,
      content: `${affected}${timeline}`,
    });
  }
  return feed;
}
