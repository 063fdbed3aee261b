// The public status page's HTML (docs/adr/0454-status-pages.md), rendered from the same summary as its
// JSON twin. No script; every text from the database is escaped; one inline stylesheet allowed by its
// hash, the logo by its origin, and nothing else (statusPageCsp).
import { escapeHtml } from "../../shared/domain/notifications/message-text.ts";
import type { StatusPageSummaryItemShape, StatusPageSummaryShape } from "../../shared/schemas/status-page-summary.ts";
import { pageStyle } from "./page-style.ts";
import { feedLinks, historyLinks, renderIncident } from "./render-incidents.ts";

const BANNER: Record<StatusPageSummaryShape["state"], string> = {
  operational: "All systems operational",
  degraded: "Some systems are degraded",
  outage: "Major outage",
  maintenance: "Maintenance in progress",
  unknown: "Status unknown",
};
const STATE: Record<StatusPageSummaryItemShape["state"], string> = {
  up: "Operational",
  degraded: "Degraded",
  down: "Down",
  maintenance: "Maintenance",
  unknown: "Unknown",
};

/** A bar segment's colour class: full, nearly, partly, poor, or no data. */
const band = (pct: number | null) => (pct === null ? "" : pct >= 100 ? "u100" : pct >= 99 ? "u99" : pct >= 95 ? "u95" : "u0");
const pctText = (pct: number | null) => (pct === null ? "no data" : `${pct}%`);
const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "until further notice");

function bar(points: { label: string; uptime: number | null }[], fine: boolean): string {
  const spans = points
    .map((p) => `<span class="${band(p.uptime)}" title="${escapeHtml(`${p.label}: ${pctText(p.uptime)}`)}"></span>`)
    .join("");
  return `<div class="bar${fine ? " fine" : ""}" role="img" aria-label="${fine ? "Availability per hour, last 24 hours" : "Availability per day, last 90 days"}">${spans}</div>`;
}

function item(i: StatusPageSummaryItemShape): string {
  const state = i.upstream_down ? `${STATE[i.state]}: ${i.upstream_down} is down` : STATE[i.state];
  return `<div class="card"><div class="row"><span class="name">${escapeHtml(i.name)}</span><span class="state ${i.state}">${escapeHtml(state)}</span></div>
${i.message ? `<div class="note">${escapeHtml(i.message)}</div>` : ""}
${bar(
  i.days.map((d) => ({ label: d.date, uptime: d.uptime })),
  false,
)}<div class="legend"><span>90 days ago</span><span>${i.uptime_90d === null ? "No data yet" : `${i.uptime_90d}% uptime`}</span><span>Today</span></div>
${bar(
  i.last_24h.map((h) => ({ label: when(h.hour), uptime: h.uptime })),
  true,
)}<div class="legend"><span>24 hours ago</span><span>Now</span></div></div>`;
}

function incidents(s: StatusPageSummaryShape): string {
  return s.incidents.length === 0 ? "" : `<h2>Current incidents</h2>${s.incidents.map(renderIncident).join("")}`;
}

function maintenance(s: StatusPageSummaryShape): string {
  if (s.maintenance.length === 0) return "";
  const rows = s.maintenance.map((m) => {
    const what =
      m.state === "in_progress" ? `In progress, until ${when(m.ends_at)}` : `Scheduled from ${when(m.starts_at)} to ${when(m.ends_at)}`;
    return `<div class="card"><div class="name">${escapeHtml(what)}</div><div class="meta">${escapeHtml(m.items.join(", "))}</div></div>`;
  });
  return `<h2>Maintenance</h2>${rows.join("")}`;
}

/** Where live updates are served (docs/adr/0459): the page's event stream and its script's tag. */
export interface LiveMarkup {
  events: string;
  script: string;
}

export function renderStatusPage(s: StatusPageSummaryShape, live?: LiveMarkup): { html: string; style: string } {
  const style = pageStyle(s.colors.primary, s.colors.accent);
  const logo = s.logo_url ? `<img src="${escapeHtml(s.logo_url)}" alt="">` : "";
  const sections = s.sections.map((sec) => `<h2>${escapeHtml(sec.name)}</h2>${sec.items.map(item).join("")}`).join("");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(s.title)}</title>${feedLinks(s.slug, s.title)}<style>${style}</style></head>
<body><main${live ? ` data-events="${escapeHtml(live.events)}"` : ""}><header>${logo}<div><h1>${escapeHtml(s.title)}</h1>${s.description ? `<p class="meta">${escapeHtml(s.description)}</p>` : ""}</div></header>
<div class="banner ${s.state}">${BANNER[s.state]}</div>
${incidents(s)}${maintenance(s)}${sections}
<footer>${s.footer_text ? `${escapeHtml(s.footer_text)}<br>` : ""}Times in UTC. <a href="${historyLinks(s.slug).history}">Incident history</a></footer></main>${live?.script ?? ""}</body></html>`;
  return { html, style };
}

export function notFoundPage(): { html: string; style: string } {
  const style = "body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}";
  return {
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title><style>${style}</style></head><body><h1>No such status page</h1></body></html>`,
    style,
  };
}
