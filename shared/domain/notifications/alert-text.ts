// The words the chat providers without a priority of their own (DingTalk, WeCom, Feishu, LINE) put
// around an alert: a status label first (RESOLVED, or the severity), the alert's link when PUBLIC_URL
// gives one, and clipping by UTF-8 bytes for the services whose limits are in bytes.
import type { AlertMessage } from "./notifiers/notifier.ts";

/** "RESOLVED" for a recovery, else the severity in capitals. */
export const statusLabel = (m: AlertMessage): string => (m.status === "resolved" ? "RESOLVED" : m.severity.toUpperCase());

/** "[CRITICAL] Server down". */
export const headline = (m: AlertMessage): string => `[${statusLabel(m)}] ${m.title}`;

/** The markdown link to the alert in the console, or nothing. */
export const markdownLink = (m: AlertMessage): string => (m.links.alert ? `\n\n[Open the alert](${m.links.alert})` : "");

const encoder = new TextEncoder();

/** `s` cut to at most `maxBytes` of UTF-8 (never inside a character), with "…" when cut. */
export function clipBytes(s: string, maxBytes: number): string {
  if (encoder.encode(s).length <= maxBytes) return s;
  let out = "";
  let used = 3; // the "…"
  for (const ch of s) {
    const n = encoder.encode(ch).length;
    if (used + n > maxBytes) break;
    out += ch;
    used += n;
  }
  return `${out}…`;
}
