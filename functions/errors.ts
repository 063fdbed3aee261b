// The app's answers for errors (spec 7.1-7.3, the envelope of shared/errors.ts). app.onError, app.notFound and
// the validation step of every route all end here, so no path can answer with an HTML page or a stack trace.
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiError, errorEnvelope } from "../shared/errors.ts";
import { inputError } from "../shared/verbs/database-errors/input-errors.ts";
import { safeErrorFields } from "../shared/safe-error.ts";
import { isDatabaseUnavailable } from "../shared/verbs/database-errors/unavailable.ts";
import type { AppEnv } from "./deps.ts";

// The one c.json outside route(): the error envelope is no route's declared answer, so it does not go through reply().
export function errorResponse(c: Context, err: ApiError): Response {
  for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
  return c.json(errorEnvelope(err), err.status as ContentfulStatusCode);
}

/**
 * Replaces whatever the request has answered so far (its headers too) with the error's envelope. The
 * answer's body is cancelled, so a stream (SSE) behind it stops producing instead of waiting forever.
 */
export function replaceWithError(c: Context, err: ApiError): void {
  c.res.body?.cancel().catch(() => {});
  c.res = undefined;
  c.res = new Response(JSON.stringify(errorEnvelope(err)), {
    status: err.status,
    headers: { "content-type": "application/json", ...err.headers },
  });
}

function fromHttpException(err: HTTPException): ApiError {
  if (err.status === 413) return new ApiError("PAYLOAD_TOO_LARGE", "Request body is larger than the limit.");
  if (err.status === 404) return new ApiError("RESOURCE_NOT_FOUND", err.message || "Not found.");
  if (err.status === 400) return ApiError.validation([{ loc: ["body"], msg: err.message || "Bad request.", type: "value_error" }]);
  return new ApiError("INTERNAL_SERVER_ERROR", "Internal server error");
}

export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof ApiError) return errorResponse(c, err);
  if (err instanceof HTTPException && err.status !== 500) return errorResponse(c, fromHttpException(err));
  const deps = c.get("deps");
  const input = inputError(err);
  if (input) return errorResponse(c, input);
  if (isDatabaseUnavailable(err)) {
    deps?.logger.warn("database unavailable", { request_id: c.get("requestId"), error: err });
    return errorResponse(
      c,
      new ApiError(
        "SERVICE_NOT_READY",
        "The database cannot answer right now; try again shortly.",
        { health: "not_ready" },
        { "Retry-After": "5" },
      ),
    );
  }
  // The logger describes the error by SQLSTATE, constraint and statement, never the query's values.
  deps?.logger.error("unhandled exception", { request_id: c.get("requestId"), error: err });
  const extra: Record<string, unknown> = {};
  if (deps?.config.DEV_MODE) extra.traceback = JSON.stringify(safeErrorFields(err), null, 2);
  return errorResponse(c, new ApiError("INTERNAL_SERVER_ERROR", "Internal server error", extra));
};

export const notFound: NotFoundHandler<AppEnv> = (c) =>
  errorResponse(c, new ApiError("RESOURCE_NOT_FOUND", `No route matches ${c.req.method} ${c.req.path}.`));
