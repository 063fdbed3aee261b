// First middleware of every request: request id, the deps and a database lease on the context, and one
// structured log line when the response is ready. (The in-flight count the drain waits on is kept by
// the Node server, until the response is written: runtime/serve.ts.)
import type { MiddlewareHandler } from "hono";
import type { AppEnv, Deps } from "../deps.ts";
import { setHeader } from "../response-headers.ts";

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestContext(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && SAFE_ID.test(incoming) ? incoming : deps.random.uuid();
    const lease = deps.database.lease();
    c.set("deps", deps);
    c.set("requestId", requestId);
    c.set("db", lease.db);
    // Before the route, so hono puts it on the answer as it builds it; answers built elsewhere get it after.
    c.header("X-Request-ID", requestId);
    try {
      await next();
    } finally {
      if (!c.res.headers.has("X-Request-ID")) setHeader(c, "X-Request-ID", requestId);
      // On workerd the per-request client ends after the response (after the body, when it is streamed
      // from the database); a shared pool has nothing to end.
      if (lease.perRequest)
        c.executionCtx.waitUntil(
          Promise.resolve(c.get("streaming")).then(
            () => lease.release(),
            () => lease.release(),
          ),
        );
      deps.logger.info("request", {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        request_id: requestId,
      });
    }
  };
}
