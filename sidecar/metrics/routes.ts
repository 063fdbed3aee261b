// Routes only the sidecar serves (the reverse proxy of a split deployment sends them here; a
// functions-only process never registers them). The metrics scrape (spec 4.3, 5.1): a bearer token
// (API token or session JWT) with read:metrics; outside the OpenAPI document, hence plain app.get.
import type { Context, Hono } from "hono";
import { enforceAccess } from "../../functions/access.ts";
import type { AppEnv } from "../../functions/deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { EXPOSITION_CONTENT_TYPE } from "../../shared/metrics/exposition.ts";
import { scrapeStream } from "../../shared/metrics/scrape.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";

export const METRICS_PATHS = ["/api/v1/metrics", "/api/v1/metrics/metrics"] as const;

export function sidecarRoutes(app: Hono<AppEnv>, runtime: NodeRuntime): void {
  const { deps } = runtime;
  const scrape = async (c: Context<AppEnv>) => {
    // Spec 5.1: a scrape presents `Authorization: Bearer`; a session cookie alone does not do.
    if (!/^Bearer\s+\S/i.test(c.req.header("authorization") ?? ""))
      throw ApiError.unauthorized("The metrics endpoint needs Authorization: Bearer <token>.", {}, { "WWW-Authenticate": 'Bearer realm="metrics"' });
    await enforceAccess(c, "user", "read:metrics");
    const body = await scrapeStream(deps.database, deps.config.version, {
      onError: (e) => deps.logger.error("metrics scrape failed mid-stream", { request_id: c.get("requestId"), error: String(e) }),
    });
    return c.body(body, 200, { "Content-Type": EXPOSITION_CONTENT_TYPE, "Cache-Control": "no-store" });
  };
  for (const path of METRICS_PATHS) app.get(path, scrape);
}
