// After every answer: X-Content-Type-Options: nosniff unless the route set it (a JSON answer must not be
// sniffed into HTML by an old browser), and Strict-Transport-Security when PUBLIC_URL is https
// (functions/security-headers.ts).
import type { MiddlewareHandler } from "hono";
import type { Config } from "../../shared/config.ts";
import type { AppEnv } from "../deps.ts";
import { setHeader } from "../response-headers.ts";
import { hstsFor } from "../security-headers.ts";

export function securityHeaders(config: Pick<Config, "PUBLIC_URL">): MiddlewareHandler<AppEnv> {
  const hsts = hstsFor(config.PUBLIC_URL);
  return async (c, next) => {
    await next();
    // A WebSocket's 101 carries the socket itself on workerd: left as it is.
    if (c.res.status === 101) return;
    if (!c.res.headers.has("X-Content-Type-Options")) setHeader(c, "X-Content-Type-Options", "nosniff");
    if (hsts) setHeader(c, "Strict-Transport-Security", hsts);
  };
}
