// [timezones] GET /timezones: the IANA zones with their current UTC offsets (any signed-in user).
import type { Hono } from "hono";
import { Timezones } from "../../../shared/schemas/system.ts";
import { listTimezones } from "../../../shared/verbs/system/timezones.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function timezoneRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/timezones",
      tag: "timezones",
      summary: "Time zones with their UTC offset right now (UTC first, then IANA names A-Z)",
      response: { schema: Timezones },
    },
    async (c, { reply }) => reply(await listTimezones({ ctx: verbContext(c) })),
  );
}
