// [system] GET /system/stats (inventory counts, database size, uptime, version) and GET /system/update
// (never checks the network: the service runs on closed networks).
import type { Hono } from "hono";
import * as v from "valibot";
import { systemStats, updateStatus } from "../../../shared/verbs/system/stats.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const Stats = v.object({
  counts: v.record(v.string(), v.number()),
  database: v.object({ kind: v.string(), size_bytes: v.nullable(v.number()) }),
  version: v.string(),
  started_at: v.string(),
  uptime_s: v.number(),
});
const Update = v.object({ current_version: v.string(), latest_version: v.null(), update_available: v.boolean(), detail: v.string() });

export function systemRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/system/stats", tag: "system", scope: systemStats.scope,
      summary: "Counts per inventory table, database size (null where PostgreSQL will not say), uptime and version", response: { schema: Stats },
    },
    async (c, { reply }) => {
      const deps = c.get("deps");
      return reply(await systemStats({ ctx: verbContext(c), input: { version: deps.config.version, startedAt: deps.startedAt, database: deps.database.kind } }));
    },
  );
  route(
    app,
    {
      method: "get", path: "/api/v1/system/update", tag: "system", scope: updateStatus.scope,
      summary: "Update status: this deployment does not look for releases over the network", response: { schema: Update },
    },
    async (c, { reply }) => reply(await updateStatus({ ctx: verbContext(c), input: { version: c.get("deps").config.version } })),
  );
}
