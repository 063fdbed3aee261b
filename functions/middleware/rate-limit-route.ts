// The route a request's rate-limit bucket is named after. Hono matches the whole chain (middleware and
// route) before the first middleware runs, so the route that will answer is known here already.
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import { METHOD_NAME_ALL } from "hono/router";
import { routeName } from "../../shared/ratelimit/bucket.ts";

/**
 * "GET /api/v1/hardware/:hardware_id": the first matched route registered for a method (app.use
 * registers middleware for ALL), by its pattern, never the concrete path, so ids cannot mint buckets.
 * When only middleware matched, the app's notFound answers: "GET <unmatched>".
 */
export function rateLimitRoute(c: Context): string {
  const route = matchedRoutes(c).find((r) => r.method !== METHOD_NAME_ALL);
  return route ? routeName(route.method, route.path) : routeName(c.req.method, undefined);
}
