// Text pieces the paging and push providers share (notifiers/pagerduty.ts ... pushbullet.ts): the link
// into the console kept whole when a body is clipped to a service's limit, a tag saying what a message is
// for the services that have no resolve or priority of their own (an SMS, a push), and Unix seconds.
import { clip } from "./notifiers/notifier.ts";
import type { AlertMessage } from "./notifiers/notifier.ts";

/** `m.body` clipped so that it and the alert's console link (its own line, when there is one) fit in `limit`. */
export function bodyWithLink(m: AlertMessage, limit: number): string {
  const link = m.links.alert;
  if (!link) return clip(m.body, limit);
  return `${clip(m.body, Math.max(1, limit - link.length - 1))}\n${link}`;
}

/** "[resolved]" for a recovery, else the severity: what a plain text message is, at a glance. */
export const statusTag = (m: AlertMessage): string => (m.status === "resolved" ? "[resolved]" : `[${m.severity}]`);

/** The alert's time as Unix seconds (the services that take a timestamp take it so). */
export const unixSeconds = (m: AlertMessage): number => Math.floor(Date.parse(m.occurred_at) / 1000);
