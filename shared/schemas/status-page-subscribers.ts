// Status page subscribers (docs/adr/0458-status-page-subscribers.md): the public subscribe body, the
// signed link's token, the public answers, and the administrators' list of a page's subscribers.
import * as v from "valibot";
import { IdParam } from "./fields.ts";
import { listQuery, listResponse } from "./list-query.ts";

// A pragmatic address check (one @, a dotted domain, no spaces or angle brackets); the confirmation proves the rest.
const EMAIL =
  /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$/;

export const SubscribeBody = v.pipe(
  v.object({
    email: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.maxLength(254, "At most 254 characters."),
        v.regex(EMAIL, "Not an e-mail address."),
        v.toLowerCase(),
        v.description("The address that receives the page's notices (exclusive with webhook_url)."),
      ),
    ),
    webhook_url: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.maxLength(2000, "At most 2000 characters."),
        v.description("An http(s) endpoint that receives each notice as a JSON POST (exclusive with email)."),
      ),
    ),
  }),
  v.check((b) => (b.email === undefined) !== (b.webhook_url === undefined), "Give exactly one of email and webhook_url."),
);
export type SubscribeInput = v.InferOutput<typeof SubscribeBody>;

export const SubscribeAnswer = v.object({ status: v.literal("accepted"), message: v.string() });

export const SubscriptionTokenParams = v.object({
  token: v.pipe(v.string(), v.maxLength(200), v.description("The signed token of a confirmation or unsubscribe link.")),
});

export const SubscriptionLinkView = v.object({
  page_title: v.string(),
  kind: v.picklist(["email", "webhook"]),
  address: v.string(),
  /** confirmed | pending | removed (an unsubscribe link of a subscription already gone). */
  state: v.picklist(["pending", "confirmed", "removed"]),
});
export type SubscriptionLinkShape = v.InferOutput<typeof SubscriptionLinkView>;

export const SubscriberOut = v.object({
  id: v.number(),
  kind: v.picklist(["email", "webhook"]),
  address: v.string(),
  state: v.picklist(["pending", "confirmed"]),
  confirmed_at: v.nullable(v.string()),
  created_at: v.string(),
  /** The state of the newest message queued to this subscriber (pending, retrying, delivered, dead), or null. */
  last_delivery_state: v.nullable(v.string()),
  last_delivery_error: v.nullable(v.string()),
});
export type SubscriberShape = v.InferOutput<typeof SubscriberOut>;

export const SUBSCRIBER_SORTS = ["created_at", "id", "address"] as const;
export const SubscriberListQuery = listQuery(
  SUBSCRIBER_SORTS,
  { state: v.optional(v.picklist(["pending", "confirmed"], "Must be pending or confirmed.")) },
  "created_at",
);
export const SubscriberList = listResponse(SubscriberOut);
export const SubscriberParams = IdParam("page_id", "subscriber_id");
