// [metrics] GET /api/v1/metrics (spec 4.3, 5.1): the Prometheus scrape. Registered only by the process
// that serves it, the sidecar (bin/start.ts; a split deployment's proxy sends the path there): a
// functions-only process does not. A bearer token (API token or session JWT) with read:metrics; outside
// the OpenAPI document (docs/architecture.md, API contracts), hence plain app.get.
import type { Context, Hono } from "hono";
import { ApiError } from "../../shared/errors.ts";
import { EXPOSITION_CONTENT_TYPE } from "../../shared/metrics/exposition.ts";
import { scrapeStream } from "../../shared/metrics/scrape.ts";
import { enforceAccess } from "../access.ts";
import type { AppEnv } from "../deps.ts";

export const METRICS_PATHS = ["/api/v1/metrics", "/api/v1/metrics/metrics"] as const;

async function scrape(c: Context<AppEnv>): Promise<Response> {
  // Spec 5.1: a scrape presents `Authorization: Bearer`; a session cookie alone does not do.
  if (!/^Bearer\s+\S/i.test(c.req.header("authorization") ?? ""))
    throw ApiError.unauthorized(
      "The metrics endpoint needs Authorization: Bearer <token>.",
      {},
      { "WWW-Authenticate": 'Bearer realm="metrics"' },
    );
  await enforceAccess(c, "user", "read:metrics");
  const deps = c.get("deps");
  const body = await scrapeStream(deps.database, deps.config.version, {
    onError: (e) => deps.logger.error("metrics scrape failed mid-stream", { request_id: c.get("requestId"), error: String(e) }),
  });
  return c.body(body, 200, { "Content-Type": EXPOSITION_CONTENT_TYPE, "Cache-Control": "no-store" });
}

export function metricsRoutes(app: Hono<AppEnv>): void {
  for (const path of METRICS_PATHS) app.get(path, scrape);
}
