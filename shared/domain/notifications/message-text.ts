// How the providers word an alert for a person, written once (notifiers/*.ts): the console link kept
// whole when a body is clipped to a service's limit, a tag or a mark saying what a message is for the
// services with no resolve or level of their own (an SMS, a push, a chat message), a card's colour, the
// clipping to a limit in bytes, and Unix seconds. Runtime-neutral, like the notifiers.
import { type AlertMessage, clip, SEVERITY_COLOR } from "./notifiers/notifier.ts";

/** `m.body` clipped so that it and the alert's console link (its own line, when there is one) fit in `limit`. */
export function bodyWithLink(m: AlertMessage, limit: number): string {
  const link = m.links.alert;
  if (!link) return clip(m.body, limit);
  return `${clip(m.body, Math.max(1, limit - link.length - 1))}\n${link}`;
}

/** "RESOLVED" for a recovery, else the severity in capitals. */
export const statusLabel = (m: Pick<AlertMessage, "status" | "severity">): string =>
  m.status === "resolved" ? "RESOLVED" : m.severity.toUpperCase();

/** "[resolved]" for a recovery, else the severity: what a plain text message is, at a glance. */
export const statusTag = (m: AlertMessage): string => `[${statusLabel(m).toLowerCase()}]`;

/** "[CRITICAL] Server down": the headline of the chat services without a level of their own. */
export const headline = (m: AlertMessage): string => `[${statusLabel(m)}] ${m.title}`;

/** The markdown link to the alert in the console, or nothing. */
export const markdownLink = (m: AlertMessage): string => (m.links.alert ? `\n\n[${ALERT_LINK_TEXT}](${m.links.alert})` : "");

/** The alert's time as Unix seconds (the services that take a timestamp take it so). */
export const unixSeconds = (m: AlertMessage): number => Math.floor(Date.parse(m.occurred_at) / 1000);

/** Severity as a glyph, for chat services without a level concept; a recovery is marked as over. */
const SEVERITY_MARK = { critical: "🔴", warning: "🟠", info: "🔵" } as const;
const RESOLVED_MARK = "✅";

export const markOf = (m: Pick<AlertMessage, "status" | "severity">): string =>
  m.status === "resolved" ? RESOLVED_MARK : SEVERITY_MARK[m.severity];

/** The colour of a card: the severity's, green once the problem is over. */
export const colorOf = (m: Pick<AlertMessage, "status" | "severity">): string =>
  m.status === "resolved" ? SEVERITY_COLOR.info : SEVERITY_COLOR[m.severity];

/** "Critical · firing", "Info · resolved": the line a card shows under its colour. */
export const levelLine = (m: Pick<AlertMessage, "status" | "severity">): string =>
  `${m.severity[0]!.toUpperCase()}${m.severity.slice(1)} · ${m.status}`;

/** The text of the link to the alert in the console. */
export const ALERT_LINK_TEXT = "Open the alert";

const utf8Length = (ch: string): number => {
  const c = ch.codePointAt(0)!;
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
};

/** The length of `s` in UTF-8 bytes. */
export function byteLength(s: string): number {
  let total = 0;
  for (const ch of s) total += utf8Length(ch);
  return total;
}

/**
 * `s` cut to at most `maxBytes` of UTF-8, ending in "…" when cut: for services whose documented limit is
 * in bytes (Webex 7,439, Zulip 10,000). Never splits a character.
 */
export function clipBytes(s: string, maxBytes: number): string {
  if (byteLength(s) <= maxBytes) return s;
  const budget = maxBytes - 3; // "…" is 3 bytes
  let used = 0;
  let out = "";
  for (const ch of s) {
    const n = utf8Length(ch);
    if (used + n > budget) break;
    used += n;
    out += ch;
  }
  return `${out}…`;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Text made safe to put inside HTML (Matrix's formatted_body): an alert's body is not ours to trust. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
