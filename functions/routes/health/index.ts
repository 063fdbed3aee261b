// The probes of spec 4.2 (bodies in docs/architecture.md, API contracts). Hono answers HEAD from the GET handlers, and
// HEAD stays out of the document, as spec 9.4 asks.
import type { Context, Hono } from "hono";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { LegacyHealth, Livez, Readyz, Startupz } from "../../../shared/schemas/health.ts";

const uptime = (c: Context<AppEnv>) => {
  const deps = c.get("deps");
  return Math.floor((deps.clock.now().getTime() - deps.startedAt.getTime()) / 1000);
};

export function healthRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/livez",
      tag: "health",
      auth: "public",
      summary: "Liveness: answers whenever the event loop runs; touches no dependency",
      response: { schema: Livez },
    },
    (c, { reply }) => reply({ status: "alive", uptime_s: uptime(c) }),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/startupz",
      tag: "health",
      auth: "public",
      summary: "Startup: 503 until initialisation completes, then 200 (also while stopping)",
      response: { schema: Startupz },
      errors: [503],
    },
    (c, { reply }) => {
      const lifecycle = c.get("deps").lifecycle;
      const started = lifecycle ? lifecycle.started : true;
      return reply({ started, state: lifecycle?.state ?? "ready" }, started ? 200 : 503);
    },
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/readyz",
      tag: "health",
      auth: "public",
      summary: "Readiness: 200 when ready and every dependency answers, else 503",
      response: { schema: Readyz },
      errors: [503],
    },
    async (c, { reply }) => {
      const s = await c.get("deps").health.snapshot(true);
      const body = {
        ready: s.ready,
        state: s.state,
        health: s.health,
        checks: s.checks,
        degraded: s.degraded,
        writes_permitted: s.writes_permitted,
      };
      return reply(body, s.ready ? 200 : 503);
    },
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/health",
      tag: "health",
      auth: "public",
      summary: "Legacy health; the version is shown to authenticated callers only",
      response: { schema: LegacyHealth },
      errors: [503],
    },
    async (c, { reply }) => {
      const s = await c.get("deps").health.snapshot(true);
      // Spec 9.2: the version only for a caller who presented a valid credential.
      const actor = c.get("actor");
      const version = actor && actor.kind !== "first_run" ? { version: c.get("deps").config.version } : {};
      return reply(
        { state: s.state, ready: s.ready, uptime_s: uptime(c), checks: s.checks, health: s.health, degraded: s.degraded, ...version },
        s.ready ? 200 : 503,
      );
    },
  );
}
