// The write-admission guard of spec 7.4: a POST, PUT, PATCH or DELETE under /api/ is admitted only while
// the health state says it can be persisted. Reads, sockets and the probes pass untouched.
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../shared/errors.ts";
import type { AppEnv } from "../deps.ts";

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const writeGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!WRITE_METHODS.has(c.req.method)) return next();
  const deps = c.get("deps");
  // Draining needs no dependency probe: answer at once.
  const snapshot = deps.lifecycle?.state === "stopping" ? undefined : await deps.health.snapshot();
  if (!snapshot || !snapshot.writes_permitted) {
    const code = snapshot?.refusal ?? "SERVER_DRAINING";
    const detail =
      code === "SERVER_DRAINING"
        ? "The server is shutting down and accepts no more writes; retry against another instance."
        : "A required dependency cannot answer (database unreachable or schema behind this build); the write was not accepted.";
    throw new ApiError(code, detail, { health: snapshot?.health ?? "stopping" }, { "Retry-After": "5" });
  }
  return next();
};
