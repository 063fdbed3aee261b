// [monitors] /monitors/target/{target_type}/{target_id}: create the target's monitor (idempotent per
// target and check type), and pause, resume or check all of its monitors.
import type { Hono } from "hono";
import { pushUrl } from "../../../shared/verbs/monitors/push/token.ts";
import { serverUrlOf } from "../agents/server-url.ts";
import { StatusOk, TargetMonitorCreateBody, TargetParams } from "../../../shared/schemas/monitors.ts";
import { MonitorCreated } from "../../../shared/schemas/push.ts";
import {
  checkTargetMonitors,
  createTargetMonitor,
  pauseTargetMonitors,
  resumeTargetMonitors,
} from "../../../shared/verbs/monitors/target-monitors.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const ONE = "/api/v1/monitors/target/:target_type/:target_id";

export function targetRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: ONE,
      tag: "monitors",
      scope: createTargetMonitor.scope,
      params: TargetParams,
      body: TargetMonitorCreateBody,
      response: {
        status: 201,
        schema: MonitorCreated,
        description: "Created (200 with the existing monitor when the target already has one of that check type)",
      },
      summary: "Create the monitor of an inventory target (idempotent)",
      description:
        "Defaults: hardware -> icmp {packet_count: 5}; compute unit and external node -> icmp; service -> http {url} when it has a URL, else tcp {port} with an address and a port, else icmp. Any other probe check_type checks the target's address with the `config` given (validated as on POST /monitors). A push check_type makes a heartbeat monitor about the target, answered with its `push_token` and `push_url` this once; a group check_type is a 422. Named `<label> (<check_type>)`, interval 60 s. An existing monitor of the target with that check type is answered unchanged (200). 404 when the target has no row or no address.",
      errors: [503],
    },
    async (c, { params: p, body, reply }) => {
      const { created, monitor, push_token } = await createTargetMonitor({
        ctx: verbContext(c),
        input: { ...p, check_type: body?.check_type, config: body?.config },
      });
      return reply(push_token ? { ...monitor, push_token, push_url: pushUrl(serverUrlOf(c), push_token) } : monitor, created ? 201 : 200);
    },
  );

  const action = (verb: typeof pauseTargetMonitors, what: string, summary: string, errors: number[] = []) =>
    route(
      app,
      {
        method: "post",
        path: `${ONE}/${what}`,
        tag: "monitors",
        scope: verb.scope,
        params: TargetParams,
        response: { status: 200, schema: StatusOk },
        summary,
        errors,
      },
      async (c, { params: p, reply }) => reply(await verb({ ctx: verbContext(c), input: p })),
    );
  action(checkTargetMonitors, "check", "Check every monitor of a target now (paused ones are skipped)", [409]);
  action(pauseTargetMonitors, "pause", "Pause every monitor of a target");
  action(resumeTargetMonitors, "resume", "Resume every monitor of a target (due at once)");
}
