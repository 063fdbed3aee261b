// [status-pages] Subscribers of a public status page (docs/adr/0458-status-page-subscribers.md).
// Public: POST /status-pages/{slug}/subscribers (rate-limited per client, always the same 202), and the
// signed links /status-pages/subscriptions/confirm|unsubscribe/{token}: GET shows a small page (or JSON)
// and changes nothing (mail scanners fetch links), POST acts (a webhook receiver confirms by POSTing its
// link; a mail client's RFC 8058 one-click unsubscribe POSTs). Invalid tokens are counted per client like
// the acknowledge links'. Administrators: GET /status-pages/{page_id}/subscribers and DELETE one.
import type { Context, Hono } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import { identityOfText, UNKNOWN_CLIENT } from "../../../shared/net/client-ip.ts";
import {
  SubscribeAnswer,
  SubscribeBody,
  SubscriberList,
  SubscriberListQuery,
  SubscriberParams,
  SubscriptionLinkView,
  type SubscriptionLinkShape,
  SubscriptionTokenParams,
} from "../../../shared/schemas/status-page-subscribers.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { StatusPageSlugParam } from "../../../shared/schemas/status-page-summary.ts";
import { SUBSCRIPTIONS_BASE } from "../../../shared/verbs/status-pages/subscriber-notices.ts";
import {
  confirmSubscription,
  deleteSubscriber,
  inspectConfirmLink,
  inspectUnsubscribeLink,
  listSubscribers,
  subscribe,
  unsubscribe,
} from "../../../shared/verbs/status-pages/subscribers.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { escapeHtml } from "../../../shared/domain/notifications/message-text.ts";
import { linkPageResponse, page } from "../notifications/ack-page.ts";
import { STATUS_PAGES_BASE } from "./page-routes.ts";

/** Subscribe requests per client (each may send a message to a stranger's address: kept low). */
export const SUBSCRIBES_PER_CLIENT = { limit: 10, windowMs: 3600_000 };
/** Invalid subscription link tokens per client, as for the acknowledge links. */
export const LINK_MISSES_PER_CLIENT = { limit: 30, windowMs: 60_000 };

const clientOf = (c: Context<AppEnv>) => identityOfText(c.get("clientIp") ?? UNKNOWN_CLIENT);
const wantsHtml = (c: Context<AppEnv>) => /\btext\/html\b/i.test(c.req.header("accept") ?? "");

async function limited(c: Context<AppEnv>, key: string, rule: { limit: number; windowMs: number }, what: string): Promise<void> {
  const d = await c.get("deps").rateLimiter.checkRule(`${key}:client:${clientOf(c)}`, rule);
  if (!d.allowed)
    throw new ApiError(
      "RATE_LIMITED",
      `Too many ${what}; retry after ${d.retryAfterS} seconds.`,
      { retry_after: d.retryAfterS },
      { "Retry-After": String(d.retryAfterS) },
    );
}

const html = linkPageResponse;

const who = (v: SubscriptionLinkShape) =>
  `<p><strong>${escapeHtml(v.address)}</strong> (${v.kind === "email" ? "e-mail" : "webhook"}) for the status page <strong>${escapeHtml(v.page_title)}</strong>.</p>`;
const button = (action: string, label: string) =>
  `<form method="post" action="${escapeHtml(action)}"><button type="submit">${escapeHtml(label)}</button></form>`;

const PAGES = {
  confirm: {
    ask: (v: SubscriptionLinkShape, action: string) =>
      v.state === "confirmed"
        ? page("Subscription confirmed", `<h1>Already confirmed</h1>${who(v)}`)
        : page("Confirm subscription", `<h1>Confirm this subscription?</h1>${who(v)}${button(action, "Confirm")}`),
    done: (v: SubscriptionLinkShape) =>
      page("Subscription confirmed", `<h1>Subscribed</h1>${who(v)}<p>Every message carries a link to unsubscribe.</p>`),
  },
  unsubscribe: {
    ask: (v: SubscriptionLinkShape, action: string) =>
      v.state === "removed"
        ? page("Unsubscribed", "<h1>Not subscribed</h1><p>This subscription was removed already.</p>")
        : page("Unsubscribe", `<h1>Unsubscribe?</h1>${who(v)}${button(action, "Unsubscribe")}`),
    done: (v: SubscriptionLinkShape) =>
      page("Unsubscribed", `<h1>Unsubscribed</h1>${v.address ? who(v) : ""}<p>Nothing more will be sent.</p>`),
  },
};

/** Runs a link's verb; an invalid token counts against the client (429 once too many), and a browser sees a page. */
async function answer(c: Context<AppEnv>, run: () => Promise<SubscriptionLinkShape>, ok: (v: SubscriptionLinkShape) => string) {
  let error: unknown;
  try {
    const v = await run();
    return wantsHtml(c) ? html(ok(v), 200) : c.json(v);
  } catch (e) {
    error = e;
  }
  if (error instanceof ApiError && error.status === 404) {
    try {
      await limited(c, "status_pages.link_miss", LINK_MISSES_PER_CLIENT, "invalid subscription links");
    } catch (e) {
      error = e;
    }
  }
  if (error instanceof ApiError && typeof error.detail === "string" && wantsHtml(c))
    return html(
      page(
        "Subscription link",
        `<h1>${error.status === 429 ? "Too many tries" : "This link cannot be used"}</h1><p>${escapeHtml(error.detail)}</p>`,
      ),
      error.status,
    );
  throw error;
}

export function statusPageSubscriberRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: `${STATUS_PAGES_BASE}/:slug/subscribers`,
      tag: "status-pages",
      auth: "public",
      params: StatusPageSlugParam,
      body: SubscribeBody,
      response: { status: 202, schema: SubscribeAnswer },
      errors: [404, 409, 429],
      summary: "Subscribe an e-mail address or a webhook to a published status page (public)",
      description:
        "No credential. `{email}` or `{webhook_url}` (http(s); never a private or loopback address unless the outbound policy allows loopback). " +
        "The answer is the same 202 whether or not the address is subscribed already; a new or pending address is sent a confirmation " +
        "(an e-mail with a signed link; a webhook gets a POST whose `data.confirm_url` it POSTs to), and nothing else is sent before it is confirmed. " +
        `An unknown slug and a draft are the same 404; 409 \`reason\` unavailable (no public address) or email_unavailable (no SMTP). ${SUBSCRIBES_PER_CLIENT.limit} requests an hour per client, then 429.`,
    },
    async (c, { params, body, reply }) => {
      await limited(c, "status_pages.subscribe", SUBSCRIBES_PER_CLIENT, "subscribe requests");
      const input = { ...body, slug: params.slug, publicUrl: c.get("deps").config.PUBLIC_URL };
      return reply(await subscribe({ ctx: verbContext(c), input }), 202);
    },
  );

  for (const purpose of ["confirm", "unsubscribe"] as const) {
    const base = {
      path: `${SUBSCRIPTIONS_BASE}/${purpose}/:token`,
      tag: "status-pages",
      auth: "public",
      params: SubscriptionTokenParams,
      errors: (purpose === "confirm" ? [404, 410, 429] : [404, 429]) as number[],
    } as const;
    const refusals =
      `A forged or malformed token answers 404 (more than ${LINK_MISSES_PER_CLIENT.limit} a minute from one client: 429)` +
      (purpose === "confirm" ? "; an expired one, or one whose subscription was removed, 410 (`reason`)." : ".");
    const [inspect, act] = purpose === "confirm" ? [inspectConfirmLink, confirmSubscription] : [inspectUnsubscribeLink, unsubscribe];
    route(
      app,
      {
        ...base,
        method: "get",
        response: {
          contentType: "text/html",
          schema: SubscriptionLinkView,
          description: "A page with one button (a browser), or what the link would do (JSON)",
        },
        summary:
          purpose === "confirm"
            ? "Show what a confirmation link confirms (changes nothing)"
            : "Show what an unsubscribe link removes (changes nothing)",
        description: `Public: the signed token is the credential. Mail scanners fetch links, so GET only shows a page whose button POSTs. ${refusals}`,
      },
      async (c, { params }) => {
        const signingKey = await c.get("deps").identity.signingKey(c.get("db"));
        return answer(
          c,
          () => inspect({ ctx: verbContext(c), input: { token: params.token, signingKey } }),
          (v) => PAGES[purpose].ask(v, c.req.path),
        );
      },
    );
    route(
      app,
      {
        ...base,
        method: "post",
        response: {
          contentType: "text/html",
          schema: SubscriptionLinkView,
          description: "The done page (a browser), or the subscription (JSON)",
        },
        summary: purpose === "confirm" ? "Confirm a subscription (double opt-in)" : "Unsubscribe (one click, RFC 8058)",
        description:
          purpose === "confirm"
            ? `Public: the signed token is the credential. The subscription starts; confirming again changes nothing. ${refusals}`
            : `Public: the signed token is the credential. Removes the subscription (\`state\` removed); again, nothing more happens. A mail client's List-Unsubscribe-Post body is accepted and ignored. ${refusals}`,
      },
      async (c, { params }) => {
        const signingKey = await c.get("deps").identity.signingKey(c.get("db"));
        return answer(c, () => act({ ctx: verbContext(c), input: { token: params.token, signingKey } }), PAGES[purpose].done);
      },
    );
  }

  route(
    app,
    {
      method: "get",
      path: `${STATUS_PAGES_BASE}/:page_id/subscribers`,
      tag: "status-pages",
      scope: listSubscribers.scope,
      params: IdParam("page_id"),
      query: SubscriberListQuery,
      response: { schema: SubscriberList },
      summary: "List a status page's subscribers",
      description:
        "Administrators (write:status_pages): the addresses are personal data. The list envelope; `state` pending | confirmed; sort created_at, id, address; `q` over the address. " +
        "`last_delivery_state`/`last_delivery_error`: the newest message queued to the subscriber (a dead letter says why).",
    },
    async (c, { params, query, reply }) =>
      reply(await listSubscribers({ ctx: verbContext(c), input: { ...query, page_id: params.page_id } })),
  );
  route(
    app,
    {
      method: "delete",
      path: `${STATUS_PAGES_BASE}/:page_id/subscribers/:subscriber_id`,
      tag: "status-pages",
      scope: deleteSubscriber.scope,
      params: SubscriberParams,
      response: { status: 204, description: "Removed" },
      summary: "Remove a subscriber",
      description: "Audited (`status_page.subscriber.delete`, without the address). Its queued messages go with it.",
    },
    async (c, { params }) => {
      await deleteSubscriber({ ctx: verbContext(c), input: { page_id: params.page_id, id: params.subscriber_id } });
      return c.body(null, 204);
    },
  );
}
