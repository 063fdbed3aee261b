// [notifications] GET|POST /ack/{token} (ours, public; docs/adr/0447-acknowledgement.md): the signed acknowledge
// link a delivered message carries. The token is the credential, as a push monitor's is. GET shows what it
// would acknowledge and changes nothing (chat apps prefetch links); POST acknowledges, once. A browser
// (Accept: text/html) gets small pages, anything else JSON and the error envelope. Invalid tokens are
// counted per client like unknown push tokens, so guessing is throttled.
import type { Context, Hono } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import { identityOfText, UNKNOWN_CLIENT } from "../../../shared/net/client-ip.ts";
import { AckLinkParams } from "../../../shared/schemas/alerts.ts";
import { acknowledgeByLink, inspectAckLink } from "../../../shared/verbs/notifications/acknowledge-link.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { confirmPage, donePage, linkPageResponse, refusedPage } from "./ack-page.ts";

/** Invalid acknowledge tokens, per client. */
export const ACK_MISSES_PER_CLIENT = { limit: 30, windowMs: 60_000 };

const wantsHtml = (c: Context<AppEnv>) => /\btext\/html\b/i.test(c.req.header("accept") ?? "");

const html = linkPageResponse;

/** Runs the verb; an invalid token counts against the client (429 once too many), and a browser sees a page. */
async function answer<T>(c: Context<AppEnv>, run: () => Promise<T>, ok: (v: T) => Response): Promise<Response> {
  let error: unknown;
  try {
    return ok(await run());
  } catch (e) {
    error = e;
  }
  if (error instanceof ApiError && error.status === 404) {
    const client = identityOfText(c.get("clientIp") ?? UNKNOWN_CLIENT);
    const d = await c.get("deps").rateLimiter.checkRule(`notifications.ack_miss:client:${client}`, ACK_MISSES_PER_CLIENT);
    if (!d.allowed)
      error = new ApiError(
        "RATE_LIMITED",
        `Too many invalid acknowledgement links; retry after ${d.retryAfterS} seconds.`,
        { retry_after: d.retryAfterS },
        { "Retry-After": String(d.retryAfterS) },
      );
  }
  if (error instanceof ApiError && typeof error.detail === "string" && wantsHtml(c))
    return html(refusedPage(error.status, error.detail), error.status);
  throw error;
}

export function ackLinkRoutes(app: Hono<AppEnv>): void {
  const base = {
    path: "/api/v1/ack/:token",
    tag: "notifications",
    auth: "public",
    params: AckLinkParams,
    errors: [404, 409, 410, 429] as number[],
  } as const;
  const refusals =
    "A forged or malformed token answers 404 (more than " +
    `${ACK_MISSES_PER_CLIENT.limit} a minute from one client: 429), an expired one 410, a used one or one whose incident resolved 409 (\`reason\`).`;

  route(
    app,
    {
      ...base,
      method: "get",
      response: { contentType: "text/html", description: "The confirmation page (a browser), or what the link acknowledges (JSON)" },
      summary: "Show what an acknowledge link would acknowledge (changes nothing)",
      description: `Public: the token is the credential. Chat apps fetch links to preview them, so GET only shows the incident and a button that POSTs. ${refusals}`,
    },
    async (c, { params }) => {
      const signingKey = await c.get("deps").identity.signingKey(c.get("db"));
      return answer(
        c,
        () => inspectAckLink({ ctx: verbContext(c), input: { token: params.token, signingKey } }),
        (v) => (wantsHtml(c) ? html(confirmPage(v, c.req.path), 200) : c.json(v)),
      );
    },
  );

  route(
    app,
    {
      ...base,
      method: "post",
      response: { contentType: "text/html", description: "The acknowledged page (a browser), or the incident's acknowledgement (JSON)" },
      summary: "Acknowledge the incident of an acknowledge link (once)",
      description: `Public: the token is the credential. Acknowledged by "link via <sink name>", audited; the link is used up. ${refusals}`,
    },
    async (c, { params }) => {
      const signingKey = await c.get("deps").identity.signingKey(c.get("db"));
      return answer(
        c,
        () => acknowledgeByLink({ ctx: verbContext(c), input: { token: params.token, signingKey } }),
        (v) => (wantsHtml(c) ? html(donePage(v), 200) : c.json(v)),
      );
    },
  );
}
