// E-mail and webhook subscribers of a public status page (issue 31 item 5, docs/adr/0458-status-page-
// subscribers.md). Anyone may ask to subscribe an address to a published page; the answer is the same
// whether or not it is subscribed already, and nothing is sent to it before the owner confirms through
// the signed link the confirmation carries (double opt-in). Every message carries a signed unsubscribe
// link. Administrators list a page's subscribers and remove one (audited).
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { notificationDeliveries, statusPageSubscribers, statusPages } from "../../db/schema/index.ts";
import { checkOutboundUrl } from "../../domain/net/outbound-policy.ts";
import { CONFIRM_TTL_MS, verifySubscriptionToken } from "../../domain/status-pages/subscription-token.ts";
import { subscriberWebhookPolicy } from "../../domain/status-pages/subscriber-policy.ts";
import { ApiError } from "../../errors.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type { SubscribeInput, SubscriberShape, SubscriptionLinkShape } from "../../schemas/status-page-subscribers.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import { publicBaseUrl } from "../notifications/message-links.ts";
import { type ListPage, listPage } from "../resources/list.ts";
import { readSmtp } from "../settings/smtp.ts";
import { defineRead, defineVerb } from "../verb.ts";
import type { VerbContext } from "../verb-context.ts";
import { requirePage } from "./page-rows.ts";
import { WRITE_STATUS_PAGES } from "./scopes.ts";
import { queueConfirmation } from "./subscriber-notices.ts";

/** A pending subscription asked for again gets a new confirmation only this long after the last. */
export const CONFIRM_RESEND_MS = 10 * 60_000;
export const SUBSCRIBE_ACCEPTED =
  "If this address can receive our messages, a confirmation is on its way; the subscription starts once it is confirmed.";
export const UNKNOWN_SUBSCRIPTION_LINK = "This subscription link is not valid (mistyped, cut short, or not made by this server).";

type SubscriberRow = typeof statusPageSubscribers.$inferSelect;

async function publishedPageBySlug(db: Db, slug: string) {
  const [row] = await db
    .select()
    .from(statusPages)
    .where(and(eq(statusPages.slug, slug.toLowerCase()), eq(statusPages.published, true)));
  // The public page's own 404 (docs/adr/0454): a draft is not told apart from nothing.
  if (!row) throw new ApiError("RESOURCE_NOT_FOUND", "No such status page.");
  return row;
}

/** Pending subscriptions whose confirmation can no longer be used are removed (their deliveries with them). */
async function prunePending(db: Db, now: Date): Promise<void> {
  await db
    .delete(statusPageSubscribers)
    .where(
      and(
        sql`${statusPageSubscribers.confirmed_at} is null`,
        lt(statusPageSubscribers.confirm_sent_at, new Date(now.getTime() - CONFIRM_TTL_MS)),
      ),
    );
}

export interface SubscribeArgs extends SubscribeInput {
  slug: string;
  /** PUBLIC_URL from the configuration (the public_url setting wins): the links need the public address. */
  publicUrl: string | undefined;
}

/** POST /status-pages/{slug}/subscribers: always the same answer once the request is well formed. */
export const subscribe = defineVerb<SubscribeArgs, { status: "accepted"; message: string }>({ scope: "public" }, async (s, input) => {
  const page = await publishedPageBySlug(s.tx, input.slug);
  const base = await publicBaseUrl(s.tx, input.publicUrl);
  if (!base)
    throw ApiError.conflict("This server has no public address (public_url), so it cannot send subscription links.", {
      reason: "unavailable",
    });
  let kind: "email" | "webhook";
  let address: string;
  if (input.email !== undefined) {
    const smtp = await readSmtp(s.tx);
    if (!smtp.smtp_enabled || !smtp.smtp_host || !smtp.smtp_from_email)
      throw ApiError.conflict("This server does not send e-mail; subscribe a webhook instead.", { reason: "email_unavailable" });
    kind = "email";
    address = input.email;
  } else {
    const checked = checkOutboundUrl(input.webhook_url!, subscriberWebhookPolicy(await readOutboundPolicy(s.tx)));
    if (!checked.ok) throw ApiError.validation([{ loc: ["body", "webhook_url"], msg: checked.message, type: "value_error" }]);
    kind = "webhook";
    address = checked.url.toString();
  }
  await prunePending(s.tx, s.now);
  const [inserted] = await s.tx
    .insert(statusPageSubscribers)
    .values({ page_id: page.id, kind, address, confirm_sent_at: s.now })
    .onConflictDoNothing()
    .returning();
  let toConfirm: SubscriberRow | undefined = inserted;
  if (!inserted) {
    // Known already: a pending one gets a fresh confirmation now and then; a confirmed one nothing (its
    // messages carry their unsubscribe link), and the answer does not differ.
    const [row] = await s.tx
      .update(statusPageSubscribers)
      .set({ confirm_sent_at: s.now, updated_at: s.now })
      .where(
        and(
          eq(statusPageSubscribers.page_id, page.id),
          eq(statusPageSubscribers.kind, kind),
          eq(statusPageSubscribers.address, address),
          sql`${statusPageSubscribers.confirmed_at} is null`,
          lt(statusPageSubscribers.confirm_sent_at, new Date(s.now.getTime() - CONFIRM_RESEND_MS)),
        ),
      )
      .returning();
    toConfirm = row;
  }
  if (toConfirm) await queueConfirmation(s, toConfirm.id, page.title, `${base}/status/${page.slug}`);
  return { status: "accepted", message: SUBSCRIBE_ACCEPTED };
});

export interface LinkInput {
  token: string;
  signingKey: Uint8Array;
}

async function subscriberWithPage(db: Db, id: number, lock = false) {
  const q = db
    .select({ sub: statusPageSubscribers, title: statusPages.title })
    .from(statusPageSubscribers)
    .innerJoin(statusPages, eq(statusPages.id, statusPageSubscribers.page_id))
    .where(eq(statusPageSubscribers.id, id));
  const [row] = lock ? await q.for("update", { of: statusPageSubscribers }) : await q;
  return row;
}

const linkView = (sub: SubscriberRow, title: string, state?: "removed"): SubscriptionLinkShape => ({
  page_title: title,
  kind: sub.kind as "email" | "webhook",
  address: sub.address,
  state: state ?? (sub.confirmed_at ? "confirmed" : "pending"),
});

/** The checks of a confirmation link: signed by us, not expired, its subscription still there. */
async function checkConfirm(ctx: Pick<VerbContext, "db">, { token, signingKey }: LinkInput, now: Date, lock = false) {
  const claims = verifySubscriptionToken(signingKey, token, "confirm");
  if (!claims) throw new ApiError("RESOURCE_NOT_FOUND", UNKNOWN_SUBSCRIPTION_LINK, { reason: "invalid" });
  if (claims.expires_at!.getTime() <= now.getTime())
    throw new ApiError("GONE", `This confirmation link expired at ${claims.expires_at!.toISOString()}; subscribe again for a new one.`, {
      reason: "expired",
    });
  const row = await subscriberWithPage(ctx.db, claims.subscriber_id, lock);
  if (!row) throw new ApiError("GONE", "This subscription no longer exists (it was removed); subscribe again.", { reason: "removed" });
  return row;
}

/** GET of a confirmation link: what it confirms; changes nothing (mail scanners fetch links). */
export const inspectConfirmLink = defineRead<LinkInput, SubscriptionLinkShape>({ scope: "public" }, async (ctx, input) => {
  const { sub, title } = await checkConfirm(ctx, input, ctx.clock.now());
  return linkView(sub, title);
});

/** POST of a confirmation link: the subscription starts (confirming twice changes nothing). */
export const confirmSubscription = defineVerb<LinkInput, SubscriptionLinkShape>({ scope: "public" }, async (s, input) => {
  const { sub, title } = await checkConfirm({ db: s.tx }, input, s.now, true);
  if (sub.confirmed_at) return linkView(sub, title);
  const [after] = await s.tx
    .update(statusPageSubscribers)
    .set({ confirmed_at: s.now, updated_at: s.now })
    .where(eq(statusPageSubscribers.id, sub.id))
    .returning();
  return linkView(after!, title);
});

async function checkUnsubscribe(ctx: Pick<VerbContext, "db">, { token, signingKey }: LinkInput, lock = false) {
  const claims = verifySubscriptionToken(signingKey, token, "unsubscribe");
  if (!claims) throw new ApiError("RESOURCE_NOT_FOUND", UNKNOWN_SUBSCRIPTION_LINK, { reason: "invalid" });
  return { claims, row: await subscriberWithPage(ctx.db, claims.subscriber_id, lock) };
}

const REMOVED: SubscriptionLinkShape = { page_title: "", kind: "email", address: "", state: "removed" };

/** GET of an unsubscribe link: what it would remove (or that it is gone already); changes nothing. */
export const inspectUnsubscribeLink = defineRead<LinkInput, SubscriptionLinkShape>({ scope: "public" }, async (ctx, input) => {
  const { row } = await checkUnsubscribe(ctx, input);
  return row ? linkView(row.sub, row.title) : REMOVED;
});

/** POST of an unsubscribe link (also a mail client's RFC 8058 one-click): removes the subscription; again, nothing. */
export const unsubscribe = defineVerb<LinkInput, SubscriptionLinkShape>({ scope: "public" }, async (s, input) => {
  const { row } = await checkUnsubscribe({ db: s.tx }, input, true);
  if (!row) return REMOVED;
  await s.tx.delete(statusPageSubscribers).where(eq(statusPageSubscribers.id, row.sub.id));
  return linkView(row.sub, row.title, "removed");
});

const SPEC = {
  table: statusPageSubscribers,
  id: statusPageSubscribers.id,
  sortable: { created_at: statusPageSubscribers.created_at, id: statusPageSubscribers.id, address: statusPageSubscribers.address },
  search: [statusPageSubscribers.address],
};

async function present(db: Db, rows: SubscriberRow[]): Promise<SubscriberShape[]> {
  const ids = rows.map((r) => r.id);
  const last = new Map<number, { state: string; last_error: string | null }>();
  if (ids.length > 0)
    for (const d of await db
      .selectDistinctOn([notificationDeliveries.subscriber_id], {
        subscriber_id: notificationDeliveries.subscriber_id,
        state: notificationDeliveries.state,
        last_error: notificationDeliveries.last_error,
      })
      .from(notificationDeliveries)
      .where(inArray(notificationDeliveries.subscriber_id, ids))
      .orderBy(notificationDeliveries.subscriber_id, desc(notificationDeliveries.id)))
      last.set(d.subscriber_id!, d);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as "email" | "webhook",
    address: r.address,
    state: r.confirmed_at ? "confirmed" : "pending",
    confirmed_at: r.confirmed_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    last_delivery_state: last.get(r.id)?.state ?? null,
    last_delivery_error: last.get(r.id)?.last_error ?? null,
  }));
}

// Addresses are personal data given to the page's administrators only: reading them needs write:status_pages.
export const listSubscribers = defineRead<
  ListParams & { page_id: number; state?: "pending" | "confirmed" | undefined },
  ListPage<SubscriberShape>
>({ scope: WRITE_STATUS_PAGES }, async (ctx, q) => {
  await requirePage(ctx.db, q.page_id);
  return listPage<SubscriberRow, SubscriberShape>(
    ctx.db,
    SPEC,
    q,
    [
      eq(statusPageSubscribers.page_id, q.page_id),
      q.state === "confirmed" ? sql`${statusPageSubscribers.confirmed_at} is not null` : undefined,
      q.state === "pending" ? sql`${statusPageSubscribers.confirmed_at} is null` : undefined,
    ],
    (rows) => present(ctx.db, rows),
  );
});

export const deleteSubscriber = defineVerb<{ page_id: number; id: number }, void>({ scope: WRITE_STATUS_PAGES }, async (s, input) => {
  const [row] = await s.tx
    .delete(statusPageSubscribers)
    .where(and(eq(statusPageSubscribers.id, input.id), eq(statusPageSubscribers.page_id, input.page_id)))
    .returning();
  if (!row) throw ApiError.notFound("Subscriber", input.id);
  s.audit({
    action: "status_page.subscriber.delete",
    category: "status_pages",
    entity_type: "status_page_subscriber",
    entity_id: row.id,
    diff: { page_id: row.page_id, kind: row.kind, confirmed: row.confirmed_at !== null },
  });
});
