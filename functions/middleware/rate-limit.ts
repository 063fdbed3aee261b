// The per-route rate limits of spec 8.1 for everything under /api/ except the probes and the metrics
// scrape: category (from method and path), route pattern and client identity (trusted-proxy aware) name
// a bucket (shared/ratelimit/bucket.ts) the limiter counts in. A refusal is 429 RATE_LIMITED with
// retry_after and Retry-After; an admitted request carries the RateLimit-* headers of the IETF draft
// (limit, remaining, reset in seconds).
import type { Context, MiddlewareHandler } from "hono";
import { ApiError } from "../../shared/errors.ts";
import { replaceWithError } from "../errors.ts";
import { setHeader } from "../response-headers.ts";
import { bucketFor } from "../../shared/ratelimit/bucket.ts";
import type { RateLimitDecision } from "../../shared/ratelimit/limiter.ts";
import { type Category, categoryFor, isSkipped } from "../../shared/ratelimit/policy.ts";
import { identityOfText, UNKNOWN_CLIENT } from "../../shared/net/client-ip.ts";
import type { AppEnv } from "../deps.ts";
import { rateLimitRoute } from "./rate-limit-route.ts";
import { RecentRefusals } from "./recent-refusals.ts";

/**
 * Starts the limiter's check as soon as the client is known, so its round trip to the store overlaps
 * authentication's instead of following it; `rateLimit` (after CSRF, docs/architecture.md, how a request flows) acts on the answer.
 */
export function startRateLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path;
    if (path.startsWith("/api/") && !isSkipped(path)) {
      const identity = identityOfText(c.get("clientIp") ?? UNKNOWN_CLIENT);
      const bucket = bucketFor(categoryFor(c.req.method, path), rateLimitRoute(c), identity);
      const pending = c.get("deps").rateLimiter.check(bucket);
      // A request refused before it reaches `rateLimit` (a CSRF failure) never awaits it.
      pending.catch(() => {});
      c.set("rateLimit", { pending, bucket });
    }
    return next();
  };
}

function refusal(d: RateLimitDecision): ApiError {
  const n = d.retryAfterS;
  return new ApiError(
    "RATE_LIMITED",
    `Too many requests; retry after ${n} seconds.`,
    { retry_after: n },
    { "Retry-After": String(n), "RateLimit-Limit": String(d.limit), "RateLimit-Remaining": "0", "RateLimit-Reset": String(n) },
  );
}

function admitted(c: Context<AppEnv>, d: RateLimitDecision): void {
  if (d.unchecked) return;
  setHeader(c, "RateLimit-Limit", String(d.limit));
  setHeader(c, "RateLimit-Remaining", String(d.remaining));
  setHeader(c, "RateLimit-Reset", String(d.retryAfterS));
}

/** Plain reads of the default category: nothing to protect but the read itself (see rateLimit). */
function overlappable(method: string, category: Category): boolean {
  return category === "default" && (method === "GET" || method === "HEAD");
}

/**
 * Acts on the verdict. Writes and the sensitive categories (sign-in, MFA, scans, IP checks, telemetry
 * pushes) wait for it before the route runs. A plain read whose bucket was not refused lately runs while
 * the verdict is on its way, and the verdict still decides the answer: refused, the read is thrown away
 * and the client gets its 429, and until its Retry-After the reads of that bucket wait for the verdict
 * first. So the limiter's round trip is not added to every read, and a client over a limit costs at most
 * one wasted read per refusal (docs/adr/0063-a-plain-read-does-not-wait-for-the-limiter.md).
 */
export function rateLimit(): MiddlewareHandler<AppEnv> {
  const recentRefusals = new RecentRefusals();
  return async (c, next) => {
    const started = c.get("rateLimit");
    if (!started) return next();
    const { pending, bucket } = started;
    const now = () => c.get("deps").clock.now().getTime();
    const overlapped = overlappable(c.req.method, bucket.category) && !recentRefusals.has(bucket.key, now());
    if (overlapped) await next();
    const d = await pending;
    if (!d.allowed) {
      recentRefusals.add(bucket.key, now() + d.retryAfterS * 1000);
      // An overlapped read has answered already: its answer is thrown away for the 429.
      if (overlapped) return replaceWithError(c, refusal(d));
      throw refusal(d);
    }
    if (!overlapped) await next();
    admitted(c, d);
  };
}
