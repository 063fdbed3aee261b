// [agents] POST /agents/pairing/lookup: which pending agent shows a pairing code (consuming the code).
// Wrong codes are limited (spec/catalogue.tsv, group agents): 10 misses per client or 50 overall in 15 minutes,
// then 429. Only misses count, so an administrator pairing a fleet is never slowed down, and a flood of
// wrong codes cannot lock out the right ones (docs/adr/0073-agents-pairing-code-misses.md).
import type { Context, Hono } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import { identityOfText, UNKNOWN_CLIENT } from "../../../shared/net/client-ip.ts";
import type { RateLimitDecision } from "../../../shared/ratelimit/limiter.ts";
import { PairingLookupBody, PairingMatch } from "../../../shared/schemas/agents.ts";
import { lookupPairingCode } from "../../../shared/verbs/agents/pairing-lookup.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const WINDOW_MS = 15 * 60_000;
export const MISSES_PER_CLIENT = 10;
export const MISSES_OVERALL = 50;
const UNKNOWN_CODE = "Unknown or expired pairing code";

/** Counts a miss against the client's and the overall budget; the refusal once either is spent. */
async function countMiss(c: Context<AppEnv>): Promise<ApiError | undefined> {
  const limiter = c.get("deps").rateLimiter;
  const client = identityOfText(c.get("clientIp") ?? UNKNOWN_CLIENT);
  // A code guesser stays counted while Redis is away (docs/adr/0345).
  const guarded = { guardsSecret: true };
  let d: RateLimitDecision = await limiter.checkRule(
    `agents.pairing_miss:client:${client}`,
    { limit: MISSES_PER_CLIENT, windowMs: WINDOW_MS },
    guarded,
  );
  // A client already over its own budget does not use up everyone else's.
  if (d.allowed) d = await limiter.checkRule("agents.pairing_miss:all", { limit: MISSES_OVERALL, windowMs: WINDOW_MS }, guarded);
  if (d.allowed) return undefined;
  return new ApiError(
    "RATE_LIMITED",
    `Too many wrong pairing codes; retry after ${d.retryAfterS} seconds.`,
    { retry_after: d.retryAfterS },
    { "Retry-After": String(d.retryAfterS) },
  );
}

export function pairingRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/agents/pairing/lookup",
      tag: "agents",
      scope: lookupPairingCode.scope,
      body: PairingLookupBody,
      response: { schema: PairingMatch },
      errors: [404],
      summary: "Find the pending agent showing a pairing code (the code is used up)",
      description: `\`code\` as the agent shows it (XXXX-XXXX-XXXX; case, spaces and dashes do not matter). A match consumes the code. 404 "${UNKNOWN_CODE}"; ${MISSES_PER_CLIENT} wrong codes from one client or ${MISSES_OVERALL} overall within 15 minutes answer 429.`,
    },
    async (c, { body, reply }) => {
      const match = await lookupPairingCode({ ctx: verbContext(c), input: { code: body.code } });
      if (match) return reply(match);
      throw (await countMiss(c)) ?? new ApiError("RESOURCE_NOT_FOUND", UNKNOWN_CODE);
    },
  );
}
