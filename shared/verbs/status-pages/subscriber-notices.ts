// A status page's messages to its subscribers (docs/adr/0458-status-page-subscribers.md), through the
// notification deliveries: one delivery per subscriber (alert and sink null, subscriber_id and notice
// set), so they get the sinks' retries, attempts and dead letters from the same worker. What a delivery
// sends is made when it is claimed: the subscriber's address, the installation's SMTP server (e-mail) or
// the subscriber's URL (webhook), and the signed links, under the server's public address.
import { inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { notificationDeliveries, type SubscriberNoticeRow, statusPageSubscribers, statusPages } from "../../db/schema/index.ts";
import type { AlertMessage } from "../../domain/notifications/notifiers/notifier.ts";
import { CONFIRM_TTL_MS, mintSubscriptionToken } from "../../domain/status-pages/subscription-token.ts";
import type { Vault } from "../../vault/vault.ts";
import type { DeliveryJob } from "../notifications/delivery-job.ts";
import { NOTIFICATIONS_CHANNEL } from "../notifications/enqueue-alert.ts";
import type { LinkSigning } from "../notifications/message-links.ts";
import { readSmtp } from "../settings/smtp.ts";
import { senderOf } from "../settings/smtp-server.ts";
import { openSectionSecret } from "../settings/secret-section.ts";
import { SMTP_SECTION } from "../settings/smtp.ts";
import type { VerbScope } from "../verb.ts";
import { escapeHtml } from "../../domain/notifications/message-text.ts";

/** Attempts of a subscriber's message before its dead letter (the sinks' default budget). */
export const SUBSCRIBER_MAX_ATTEMPTS = 5;
export const SUBSCRIPTIONS_BASE = "/api/v1/status-pages/subscriptions";

export interface SubscriberNotice {
  pageId: number;
  subject: string;
  text: string;
  /** Optional HTML twin of `text` (the caller escapes what it puts in). */
  html?: string | undefined;
  /** The page or incident on the public site. */
  url?: string | undefined;
}

async function queue(s: VerbScope, subscriberIds: number[], notice: SubscriberNoticeRow): Promise<number> {
  // Finished ones expire with the retention job (shared/verbs/retention/retention-job.ts).
  if (subscriberIds.length === 0) return 0;
  const rows = await s.tx
    .insert(notificationDeliveries)
    .values(
      subscriberIds.map((id) => ({
        subscriber_id: id,
        notice,
        max_attempts: SUBSCRIBER_MAX_ATTEMPTS,
        next_attempt_at: s.now,
      })),
    )
    .returning({ id: notificationDeliveries.id });
  await s.tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ subscriber_deliveries: rows.length })})`);
  return rows.length;
}

/**
 * Queues `notice` to every confirmed subscriber of the page, in the caller's transaction (sent once it
 * commits). Each message carries the subscriber's unsubscribe link. Answers how many were queued.
 */
export async function noticeSubscribers(s: VerbScope, notice: SubscriberNotice): Promise<{ queued: number }> {
  const subscribers = await s.tx
    .select({ id: statusPageSubscribers.id })
    .from(statusPageSubscribers)
    .where(sql`${statusPageSubscribers.page_id} = ${notice.pageId} and ${statusPageSubscribers.confirmed_at} is not null`);
  const queued = await queue(
    s,
    subscribers.map((r) => r.id),
    { kind: "notice", subject: notice.subject, text: notice.text, html: notice.html, url: notice.url },
  );
  return { queued };
}

/** Queues the double opt-in's request to a pending subscriber (shared/verbs/status-pages/subscribers.ts). */
export async function queueConfirmation(s: VerbScope, subscriberId: number, pageTitle: string, pageUrl: string): Promise<void> {
  await queue(s, [subscriberId], {
    kind: "confirm",
    subject: `Confirm your subscription to ${pageTitle}`,
    text: `Someone, hopefully you, asked to receive the status updates of "${pageTitle}" here.`,
    url: pageUrl,
  });
}

export interface SubscriberDeliveryRow {
  id: number;
  subscriber_id: number;
  notice: SubscriberNoticeRow;
  attempt_count: number;
}

/** The e-mail sink the installation's SMTP settings make (its own mail: docs/adr/0167), or why there is none. */
async function smtpSink(db: Db, vault: Vault): Promise<{ config: Record<string, unknown>; secrets: Record<string, string> } | string> {
  const smtp = await readSmtp(db);
  if (!smtp.smtp_enabled || !smtp.smtp_host || !smtp.smtp_from_email) return "E-mail is not set up on this server (SMTP settings).";
  const password = await openSectionSecret(db, vault, SMTP_SECTION, "smtp_password").catch(() => undefined);
  if (password === undefined) return "The SMTP password cannot be opened with this server's vault key.";
  return {
    config: {
      from_email: senderOf(smtp),
      smtp_host: smtp.smtp_host,
      smtp_port: smtp.smtp_port,
      smtp_username: smtp.smtp_username,
      smtp_secure: smtp.smtp_port === 465,
      smtp_require_tls: smtp.smtp_tls,
      smtp_verify_tls: smtp.smtp_verify_tls,
    },
    secrets: password ? { smtp_password: password } : {},
  };
}

/**
 * The jobs of claimed subscriber deliveries (delivery-work.ts claims them with the sinks'). The job's
 * `sink.id` is the negative page id: the worker's per-sink concurrency then holds one page's sends.
 */
export async function subscriberJobs(
  db: Db,
  claimed: SubscriberDeliveryRow[],
  vault: Vault,
  links: LinkSigning | undefined,
): Promise<{ jobs: DeliveryJob[]; failed: { id: number; error: string }[] }> {
  const jobs: DeliveryJob[] = [];
  const failed: { id: number; error: string }[] = [];
  if (claimed.length === 0) return { jobs, failed };
  const subscribers = await db
    .select({
      id: statusPageSubscribers.id,
      kind: statusPageSubscribers.kind,
      address: statusPageSubscribers.address,
      confirm_sent_at: statusPageSubscribers.confirm_sent_at,
      page_id: statusPageSubscribers.page_id,
      title: statusPages.title,
      slug: statusPages.slug,
    })
    .from(statusPageSubscribers)
    .innerJoin(statusPages, sql`${statusPages.id} = ${statusPageSubscribers.page_id}`)
    .where(
      inArray(
        statusPageSubscribers.id,
        claimed.map((d) => d.subscriber_id),
      ),
    );
  const byId = new Map(subscribers.map((r) => [r.id, r]));
  let smtp: Awaited<ReturnType<typeof smtpSink>> | undefined;
  for (const d of claimed) {
    const sub = byId.get(d.subscriber_id);
    if (!sub) continue;
    // Links need the server's public address: without it a message could neither be confirmed nor left.
    if (!links) {
      failed.push({ id: d.id, error: "The server has no public address (public_url), so the message's links cannot be made." });
      continue;
    }
    const link = (purpose: "confirm" | "unsubscribe", expires_at: Date | null) =>
      `${links.publicUrl}${SUBSCRIPTIONS_BASE}/${purpose}/${mintSubscriptionToken(links.signingKey, { purpose, subscriber_id: sub.id, expires_at })}`;
    const unsubscribe = link("unsubscribe", null);
    const pageUrl = d.notice.url ?? `${links.publicUrl}/status/${sub.slug}`;
    const confirm = d.notice.kind === "confirm" ? link("confirm", new Date(sub.confirm_sent_at.getTime() + CONFIRM_TTL_MS)) : undefined;
    const text = confirm
      ? `${d.notice.text}\n\nConfirm it here: ${confirm}\n\nThe link works until ${new Date(sub.confirm_sent_at.getTime() + CONFIRM_TTL_MS).toISOString()}. If it was not you, ignore this message: nothing will be sent to you.\n`
      : `${d.notice.text}\n\n${pageUrl}\n\n--\nYou receive this because you subscribed to "${sub.title}". Unsubscribe: ${unsubscribe}\n`;
    const html =
      !confirm && d.notice.html
        ? `${d.notice.html}\n<hr><p style="font-size:small">You receive this because you subscribed to "${escapeHtml(sub.title)}". <a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p>`
        : undefined;
    const message: AlertMessage = {
      id: `status_page_${d.notice.kind}_${d.id}`,
      kind: d.notice.kind === "confirm" ? "status_page.subscription_confirm" : "status_page.notice",
      status: "event",
      dedup_key: `status_page_${sub.page_id}_${d.id}`,
      links: {},
      severity: "info",
      title: d.notice.subject,
      body: d.notice.text,
      occurred_at: new Date().toISOString(),
      data: {
        page: { title: sub.title, url: pageUrl },
        ...(confirm ? { confirm_url: confirm, confirm_token: confirm.slice(confirm.lastIndexOf("/") + 1) } : {}),
        unsubscribe_url: unsubscribe,
      },
      mail: {
        subject: d.notice.subject,
        text,
        html,
        // RFC 2369 and RFC 8058: a mail client's one-click unsubscribe POSTs to the link.
        headers: confirm ? undefined : { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      },
    };
    if (sub.kind === "email") {
      smtp ??= await smtpSink(db, vault);
      if (typeof smtp === "string") {
        failed.push({ id: d.id, error: smtp });
        continue;
      }
      jobs.push({
        delivery_id: d.id,
        attempt: d.attempt_count + 1,
        sink: { id: -sub.page_id, provider_type: "email", config: { ...smtp.config, to: sub.address }, secrets: smtp.secrets },
        message,
      });
    } else
      jobs.push({
        delivery_id: d.id,
        attempt: d.attempt_count + 1,
        // The URL is checked against the outbound policy again when it is sent (sidecar/notifications/send-http.ts).
        sink: { id: -sub.page_id, provider_type: "webhook", config: { url: sub.address }, secrets: {} },
        message,
        publicSubscriber: true,
      });
  }
  return { jobs, failed };
}
