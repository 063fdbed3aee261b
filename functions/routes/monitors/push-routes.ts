// [monitors] heartbeat (push) monitors (docs/adr/0439): GET|POST /push/{token}, public, where a job
// reports that it ran; and POST /monitors/{id}/push-token, which rotates the token and answers the new
// one once. The push path is lean: the push joins the group commit (shared/verbs/monitors/push/
// group-commit.ts), whose transaction also counts it against its monitor's per-minute limit, and is
// answered after that transaction committed.
// An unknown, rotated or malformed token is one generic 404 that says nothing about which monitors
// exist; misses are counted per client like wrong pairing codes, so guessing is throttled too.
import type { Context, Hono } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import { identityOfText, UNKNOWN_CLIENT } from "../../../shared/net/client-ip.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { PushAccepted, PushBody, PushFields, type PushFieldsInput, PushParams, PushTokenIssued } from "../../../shared/schemas/push.ts";
import { commitPush } from "../../../shared/verbs/monitors/push/group-commit.ts";
import { PUSHES_PER_MINUTE } from "../../../shared/verbs/monitors/push/record-pushes.ts";
import { rotatePushToken } from "../../../shared/verbs/monitors/push/issue-token.ts";
import { PUSH_TOKEN_PATTERN, pushTokenHash, pushUrl } from "../../../shared/verbs/monitors/push/token.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { serverUrlOf } from "../agents/server-url.ts";

/** Pushes to tokens that do not exist, per client. */
export const PUSH_MISSES_PER_CLIENT = { limit: 30, windowMs: 60_000 };
export const UNKNOWN_PUSH_TOKEN = "Unknown push token.";

function tooMany(retryAfterS: number, what: string): ApiError {
  return new ApiError(
    "RATE_LIMITED",
    `${what}; retry after ${retryAfterS} seconds.`,
    { retry_after: retryAfterS },
    { "Retry-After": String(retryAfterS) },
  );
}

/** The 404 of a token no monitor holds, or the 429 once this client has sent too many of them. */
async function miss(c: Context<AppEnv>): Promise<ApiError> {
  const client = identityOfText(c.get("clientIp") ?? UNKNOWN_CLIENT);
  const d = await c.get("deps").rateLimiter.checkRule(`monitors.push_miss:client:${client}`, PUSH_MISSES_PER_CLIENT);
  return d.allowed ? new ApiError("RESOURCE_NOT_FOUND", UNKNOWN_PUSH_TOKEN) : tooMany(d.retryAfterS, "Too many pushes to unknown tokens");
}

/** The query string's fields under the body's (a POST may send either, or both). */
function pushFields(query: PushFieldsInput, body: PushFieldsInput | undefined): PushFieldsInput {
  const merged = { ...query };
  for (const [k, v] of Object.entries(body ?? {})) if (v !== undefined) (merged as Record<string, unknown>)[k] = v;
  return merged;
}

/** Records one push and says what became of it (the 404 and 429s are thrown). */
async function push(c: Context<AppEnv>, token: string, f: PushFieldsInput): Promise<{ ok: true; recorded: boolean }> {
  if (!PUSH_TOKEN_PATTERN.test(token)) throw await miss(c);
  const outcome = await commitPush(verbContext(c), {
    token_hash: pushTokenHash(token),
    status: f.status === "up" || f.status === "down" ? f.status : null,
    msg: f.msg ? f.msg : null,
    ping_ms: f.ping ?? null,
    exit_code: f.exit_code ?? null,
  });
  if (outcome.status === "unknown") throw await miss(c);
  if (outcome.status === "limited") throw tooMany(outcome.retry_after_s, "Too many pushes for this monitor");
  return { ok: true, recorded: outcome.status === "recorded" };
}

export function pushRoutes(app: Hono<AppEnv>): void {
  // GET (the cron one-liner) and POST are one operation each: a GET documents no body, so clients and
  // the fuzz suite built from the OpenAPI document never send it one.
  const pushRoute = {
    path: "/api/v1/push/:token",
    tag: "monitors",
    auth: "public",
    params: PushParams,
    query: PushFields,
    response: { schema: PushAccepted },
    errors: [404, 429] as number[],
    summary: "Push a heartbeat to a push monitor",
    description:
      "Public: the token is the credential. `status` up (default) or down, `msg`, `ping` (ms) and `exit_code` (not 0: down, unless `status` is given), in the query string or (POST) a JSON or form body (the body's win). Answered after the result committed; a push saying down marks the monitor down at once. A paused monitor's push is accepted and not recorded (`recorded: false`). An unknown or rotated token answers 404; more than " +
      `${PUSHES_PER_MINUTE} pushes a minute to one token, or ${PUSH_MISSES_PER_CLIENT.limit} to unknown tokens from one client, answer 429 with Retry-After.`,
  } as const;
  route(app, { ...pushRoute, method: "get" }, async (c, { params, query, reply }) => reply(await push(c, params.token, query)));
  route(app, { ...pushRoute, method: "post", body: PushBody, acceptsForm: true }, async (c, { params, query, body, reply }) =>
    reply(await push(c, params.token, pushFields(query, body))),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/monitors/:monitor_id/push-token",
      tag: "monitors",
      scope: rotatePushToken.scope,
      params: IdParam("monitor_id"),
      response: { status: 200, schema: PushTokenIssued },
      errors: [409],
      summary: "Rotate a push monitor's push token",
      description:
        "A new token, answered this once with its push URL (PUBLIC_URL, else this request's address); the old token stops at once. Audited without the token. 409 `not_push_monitor` for any other check type.",
    },
    async (c, { params, reply }) => {
      const issued = await rotatePushToken({ ctx: verbContext(c), input: { id: params.monitor_id } });
      return reply({ ...issued, push_url: pushUrl(serverUrlOf(c), issued.push_token) });
    },
  );
}
