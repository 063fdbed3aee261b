// The per-route rate limits of spec 8.1 for everything under /api/ except the probes and the metrics
// scrape: category (from method and path) + client identity (trusted-proxy aware) -> the limiter. A
// refusal is 429 RATE_LIMITED with retry_after and Retry-After; an admitted request carries the
// RateLimit-* headers of the IETF draft (limit, remaining, reset in seconds).
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../shared/errors.ts";
import { CidrSet } from "../../shared/net/cidr.ts";
import { clientIdentity } from "../../shared/net/client-ip.ts";
import { categoryFor, isSkipped } from "../../shared/ratelimit/policy.ts";
import type { AppEnv, Deps } from "../deps.ts";

export function rateLimit(deps: Deps): MiddlewareHandler<AppEnv> {
  const trustedProxies = new CidrSet(deps.config.TRUSTED_PROXIES);
  return async (c, next) => {
    const path = c.req.path;
    if (!path.startsWith("/api/") || isSkipped(path)) return next();
    const { rateLimiter, peerAddress } = c.get("deps");
    // Node hands the socket peer in through deps; workerd has no socket but Cloudflare sets this header.
    const peer = peerAddress ? peerAddress(c) : c.req.header("cf-connecting-ip");
    const identity = clientIdentity({ peer, forwardedFor: c.req.header("x-forwarded-for"), trustedProxies });
    const category = categoryFor(c.req.method, path);
    const d = await rateLimiter.check(category, identity);
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
