// The per-route rate limits of spec 8.1 for everything under /api/ except the probes and the metrics
// scrape: category (from method and path) + client identity (trusted-proxy aware) -> the limiter. A
// refusal is 429 RATE_LIMITED with retry_after and Retry-After; an admitted request carries the
// RateLimit-* headers of the IETF draft (limit, remaining, reset in seconds).
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../shared/errors.ts";
import { categoryFor, isSkipped } from "../../shared/ratelimit/policy.ts";
import { identityOfText, UNKNOWN_CLIENT } from "../../shared/net/client-ip.ts";
import type { AppEnv } from "../deps.ts";

/**
 * Starts the limiter's check as soon as the client is known, so its round trip to the store overlaps
 * authentication's instead of following it; `rateLimit` (after CSRF, DESIGN.md 2) acts on the answer.
 */
export function startRateLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path;
    if (path.startsWith("/api/") && !isSkipped(path)) {
      const identity = identityOfText(c.get("clientIp") ?? UNKNOWN_CLIENT);
      const pending = c.get("deps").rateLimiter.check(categoryFor(c.req.method, path), identity);
      // A request refused before it reaches `rateLimit` (a CSRF failure) never awaits it.
      pending.catch(() => {});
      c.set("rateLimit", pending);
    }
    return next();
  };
}

export function rateLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const pending = c.get("rateLimit");
    if (!pending) return next();
    const d = await pending;
    if (!d.allowed) {
      const n = d.retryAfterS;
      throw new ApiError(
        429,
        "RATE_LIMITED",
        `Too many requests; retry after ${n} seconds.`,
        { retry_after: n },
        { "Retry-After": String(n), "RateLimit-Limit": String(d.limit), "RateLimit-Remaining": "0", "RateLimit-Reset": String(n) },
      );
    }
    await next();
    if (!d.unchecked) {
      c.header("RateLimit-Limit", String(d.limit));
      c.header("RateLimit-Remaining", String(d.remaining));
      c.header("RateLimit-Reset", String(d.retryAfterS));
    }
  };
}
