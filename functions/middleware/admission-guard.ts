// The admission guard of spec 7.4, for reads too. A POST, PUT, PATCH or DELETE under /api/ is admitted
// only while the health state says it can be persisted. A GET or HEAD is refused at once while the
// health monitor last found the database unreachable, instead of queueing behind a dead pool; while it
// is healthy a read only reads that flag (no probe, no await). Both refusals are the 503 of spec 7.3.
// Once admitted, a request that still waits after WATCH_MS asks the monitor to check the database (a
// network partition that drops packets never errors a query), and is cut with the same 503 the moment
// the database is known down, instead of hanging until the network returns (docs/adr/0340).
import type { Context, MiddlewareHandler } from "hono";
import { isDatabaseUnavailable } from "../../shared/verbs/database-errors/unavailable.ts";
import { ApiError } from "../../shared/errors.ts";
import type { DerivedHealth } from "../../shared/health.ts";
import type { AppEnv } from "../deps.ts";

type Refusal = "SERVICE_NOT_READY" | "SERVER_DRAINING";

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const READ_METHODS = new Set(["GET", "HEAD"]);
const PROBES = ["livez", "startupz", "readyz", "health"].map((p) => `/api/v1/${p}`);
const NO_DATABASE = new Set([...PROBES, "/api/v1/metrics", "/api/docs", "/api/openapi.json", "/api/redoc"]);

const WRITE_DETAIL: Record<Refusal, string> = {
  SERVER_DRAINING: "The server is shutting down and accepts no more writes; retry against another instance.",
  SERVICE_NOT_READY: "A required dependency cannot answer (database unreachable or schema behind this build); the write was not accepted.",
};
const READ_DETAIL = "The database cannot be reached right now; the read was not attempted.";
const CUT_DETAIL =
  "The database stopped answering while the request waited on it; retry shortly (a write under way may or may not have been applied).";

/** How long an admitted request waits before the monitor is asked whether the database still answers. */
const WATCH_MS = 500;

/** The 503 of spec 7.3: the refusal's code, the derived health state and `Retry-After: 5`. */
export function refusal(code: Refusal, detail: string, health: DerivedHealth): ApiError {
  return new ApiError(code, detail, { health }, { "Retry-After": "5" });
}

/** What a read meets while the database is known down (before it touches the pool). */
export function readRefusal(health: DerivedHealth): ApiError {
  return refusal("SERVICE_NOT_READY", READ_DETAIL, health);
}

/** The probes (they report the outage themselves), the metrics scrape and the API documents. */
function needsNoDatabase(path: string): boolean {
  return NO_DATABASE.has(path) || path.startsWith("/api/v1/metrics/") || path.startsWith("/api/docs/");
}

async function admitWrite(c: Context<AppEnv>): Promise<void> {
  const deps = c.get("deps");
  // Draining needs no dependency probe: answer at once.
  if (deps.lifecycle?.state === "stopping") throw refusal("SERVER_DRAINING", WRITE_DETAIL.SERVER_DRAINING, "stopping");
  const snapshot = await deps.health.snapshot();
  if (snapshot.writes_permitted) return;
  const code = snapshot.refusal ?? "SERVICE_NOT_READY";
  throw refusal(code, WRITE_DETAIL[code], snapshot.health);
}

/** workerd drops a request's unfinished work with its response unless handed to waitUntil. */
function inBackground(c: Context<AppEnv>, work: Promise<void> | undefined): void {
  if (!work) return;
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    // No execution context (Node): the probe runs on by itself.
  }
}

/**
 * Runs the rest of the request until it answers or the database becomes known down, whichever is first;
 * while it waits, the monitor checks the database every WATCH_MS (at its own pace, one probe at a time).
 * A cut request's work runs on in the background and settles when the network returns; its answer is
 * not used.
 */
async function unlessDatabaseLost(c: Context<AppEnv>, next: () => Promise<void>): Promise<void> {
  const { health } = c.get("deps");
  let off = () => {};
  const lost = new Promise<never>((_, reject) => {
    off = health.onDown(() => reject(refusal("SERVICE_NOT_READY", CUT_DETAIL, health.lastKnown()?.health ?? "not_ready")));
  });
  const watch = setInterval(() => health.suspect(), WATCH_MS);
  // Node: never holds a finished process open (workerd timers have no unref).
  (watch as { unref?: () => void }).unref?.();
  const work = next();
  try {
    await Promise.race([work, lost]);
  } finally {
    off();
    clearInterval(watch);
    work.catch(() => {});
  }
}

export const admissionGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { health } = c.get("deps");
  if (WRITE_METHODS.has(c.req.method)) await admitWrite(c);
  else if (health.databaseDown && READ_METHODS.has(c.req.method) && !needsNoDatabase(c.req.path)) {
    inBackground(c, health.recheck());
    throw readRefusal(health.lastKnown()?.health ?? "not_ready");
  }
  if (needsNoDatabase(c.req.path)) await next();
  else await unlessDatabaseLost(c, next);
  // A query that lost the database tells the monitor now, not at its next probe: the reads after it fail fast.
  if (c.error && isDatabaseUnavailable(c.error)) inBackground(c, health.reportUnavailable());
};
