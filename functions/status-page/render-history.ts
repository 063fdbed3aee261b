// A published status page's incident history as HTML (docs/adr/0457-status-page-history-and-feeds.md):
// every published incident, newest first, a page at a time (?page=N), with its timeline. No script;
// the same stylesheet, escaping and CSP as the page itself.
import { escapeHtml } from "../../shared/domain/notifications/message-text.ts";
import type { StatusPageHistoryShape } from "../../shared/schemas/status-page-incidents.ts";
import { pageStyle } from "./page-style.ts";
import { feedLinks, historyLinks, renderIncident } from "./render-incidents.ts";

export function renderHistoryPage(h: StatusPageHistoryShape, pageNumber: number): { html: string; style: string } {
  const { page } = h;
  const style = pageStyle(page.colors.primary, page.colors.accent);
  const links = historyLinks(page.slug);
  const logo = page.logo_url ? `<img src="${escapeHtml(page.logo_url)}" alt="">` : "";
  const body = h.items.length === 0 ? `<p class="meta">No incidents reported.</p>` : h.items.map(renderIncident).join("");
  const nav = [
    pageNumber > 1 ? `<a href="${links.history}${pageNumber > 2 ? `?page=${pageNumber - 1}` : ""}">Newer incidents</a>` : "",
    h.offset + h.items.length < h.total ? `<a href="${links.history}?page=${pageNumber + 1}">Older incidents</a>` : "",
  ].filter(Boolean);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${page.title}: incident history`)}</title>${feedLinks(page.slug, page.title)}<style>${style}</style></head>
<body><main><header>${logo}<div><h1>${escapeHtml(page.title)}</h1><p class="meta"><a href="${links.page}">Current status</a></p></div></header>
<h2>Incident history</h2>${body}
${nav.length > 0 ? `<nav class="row">${nav.join("")}</nav>` : ""}
<footer>${page.footer_text ? `${escapeHtml(page.footer_text)}<br>` : ""}Times in UTC. Subscribe: <a href="${links.atom}">Atom</a> · <a href="${links.rss}">RSS</a></footer></main></body></html>`;
  return { html, style };
}
