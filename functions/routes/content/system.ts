// [system] GET /system/stats (inventory counts, database size, uptime, version) and GET /system/update
// (never checks the network: the service runs on closed networks).
import type { Hono } from "hono";
import { SystemStats, UpdateStatus } from "../../../shared/schemas/system.ts";
import { systemStats, updateStatus } from "../../../shared/verbs/system/stats.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function systemRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/system/stats",
      tag: "system",
      scope: systemStats.scope,
      summary: "Counts per inventory table, database size (null where PostgreSQL will not say), uptime and version",
      response: { schema: SystemStats },
    },
    async (c, { reply }) => {
      const deps = c.get("deps");
      return reply(
        await systemStats({
          ctx: verbContext(c),
          input: { version: deps.config.version, startedAt: deps.startedAt, database: deps.database.kind },
        }),
      );
    },
  );
  route(
    app,
    {
      method: "get",
      path: "/api/v1/system/update",
      tag: "system",
      scope: updateStatus.scope,
      summary: "Update status: this deployment does not look for releases over the network",
      response: { schema: UpdateStatus },
    },
    async (c, { reply }) => reply(await updateStatus({ ctx: verbContext(c), input: { version: c.get("deps").config.version } })),
  );
}
