// The acknowledgement link's pages (docs/adr/0447-acknowledgement.md): small, self-contained HTML that a phone
// opens from a chat message without a session. The confirmation page's only action is a form that POSTs
// the token back; no script, and a CSP that allows nothing but its own inline style and that form.
import type { AckLinkView } from "../../../shared/verbs/notifications/acknowledge-link.ts";
import { escapeHtml } from "../../../shared/domain/notifications/message-text.ts";

export const ACK_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}button{font:inherit;padding:.6rem 1.2rem}.meta{color:#555}</style>
</head><body>${body}</body></html>`;
}

const what = (v: AckLinkView) =>
  `<p><strong>${escapeHtml(v.title)}</strong></p><p class="meta">${escapeHtml(v.severity)}, since ${escapeHtml(v.occurred_at)}${v.sink_name ? `; sent through ${escapeHtml(v.sink_name)}` : ""}</p>`;

/** The GET: what would be acknowledged, and the one button that does it. */
export function confirmPage(v: AckLinkView, action: string): string {
  const already = v.acknowledged_by
    ? `<p>Already acknowledged by ${escapeHtml(v.acknowledged_by)} at ${escapeHtml(v.acknowledged_at ?? "")}.</p>`
    : `<form method="post" action="${escapeHtml(action)}"><button type="submit">Acknowledge</button></form>`;
  return page(
    "Acknowledge alert",
    `<h1>Acknowledge this alert?</h1>${what(v)}${already}<p class="meta">This link works once, until ${escapeHtml(v.expires_at)}.</p>`,
  );
}

export function donePage(v: AckLinkView & { acknowledged: boolean }): string {
  const said = v.acknowledged ? "Acknowledged" : `Already acknowledged by ${escapeHtml(v.acknowledged_by ?? "someone")}`;
  return page(
    "Alert acknowledged",
    `<h1>${said}</h1>${what(v)}<p class="meta">Notifications about it stop until it recovers or is un-acknowledged.</p>`,
  );
}

export function refusedPage(status: number, message: string): string {
  return page(
    "Acknowledgement link",
    `<h1>This link cannot acknowledge</h1><p>${escapeHtml(message)}</p><p class="meta">HTTP ${status}</p>`,
  );
}

/** A link page as the answer: no caching, no referrer (the URL holds the token), the CSP above. */
export function linkPageResponse(body: string, status: number): Response {
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": ACK_PAGE_CSP,
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    },
  });
}
