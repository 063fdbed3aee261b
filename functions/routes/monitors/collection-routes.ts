// [monitors] the collection: list, create, overview and target summary (fixed paths, registered before
// /monitors/{monitor_id}).
import type { Hono } from "hono";
import {
  MonitorCreateBody,
  MonitorList,
  MonitorListQuery,
  MonitorOverviewList,
  TargetSummaryList,
  TargetSummaryQuery,
} from "../../../shared/schemas/monitors.ts";
import { createMonitor } from "../../../shared/verbs/monitors/create-monitor.ts";
import { listMonitors, monitorOverview } from "../../../shared/verbs/monitors/read-monitors.ts";
import { targetSummary } from "../../../shared/verbs/monitors/target-summary.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { targetIds } from "./target-ids.ts";
import { MonitorCreated } from "../../../shared/schemas/push.ts";
import { pushUrl } from "../../../shared/verbs/monitors/push/token.ts";
import { serverUrlOf } from "../agents/server-url.ts";

const BASE = "/api/v1/monitors";
const LIST_NOTE =
  "The list envelope; `sort` name (default), status, check_type, host, last_polled_at, created_at, id, target_type or site (the site's name); filters target_type (`none`: monitors without a target), target_id, enabled, status, check_type, probe_agent_id, group_id (a group's members), site_id (the site of the hardware the target is or runs on) and tag (a tag of the target or of that hardware; docs/adr/0464); `q` over name and host.";

export function collectionRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: BASE,
      tag: "monitors",
      scope: listMonitors.scope,
      query: MonitorListQuery,
      response: { schema: MonitorList },
      summary: "List monitors",
      description: LIST_NOTE,
    },
    async (c, { query, reply }) => reply(await listMonitors({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post",
      path: BASE,
      tag: "monitors",
      scope: createMonitor.scope,
      body: MonitorCreateBody,
      response: { status: 201, schema: MonitorCreated },
      summary: "Create a monitor (pending, due at once)",
      description:
        "`config` is checked against `check_type` (unknown keys 422) and stored with only the keys sent. http secrets (`password`, `token`, credential headers such as Authorization) are sealed by the vault and answered as `********` with `<key>_set`; sending the mask back keeps the stored value. A push monitor (`check_type` push) is answered with its `push_token` and `push_url` this once (docs/monitors.md, Push monitors); it is due by its first deadline.",
      errors: [503],
    },
    async (c, { body, reply }) => {
      const { monitor, push_token } = await createMonitor({ ctx: verbContext(c), input: { body } });
      return reply(push_token ? { ...monitor, push_token, push_url: pushUrl(serverUrlOf(c), push_token) } : monitor, 201);
    },
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/overview`,
      tag: "monitors",
      scope: monitorOverview.scope,
      query: MonitorListQuery,
      response: { schema: MonitorOverviewList },
      summary: "Monitors with their last 12 latencies, last 20 events and last 50 results, and the counts per state and target kind",
      description: `${LIST_NOTE} Each item is a MonitorRead plus \`latency_series\` (oldest first), \`recent_checks\` (newest first), \`heartbeats\` (the last 50 results oldest first, each with the state the monitor was in after it, docs/adr/0465), \`site\` and \`tags\`. \`counts\` says how many monitors the filters select (the \`status\` filter aside, so each state's count is what that status filter would list) in each state, in all and per target kind (\`none\`: without a target): the console's overview reads its tiles and its table in this one request (docs/adr/0463).`,
    },
    async (c, { query, reply }) => reply(await monitorOverview({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/target-summary`,
      tag: "monitors",
      scope: targetSummary.scope,
      query: TargetSummaryQuery,
      response: { schema: TargetSummaryList },
      summary: "Per-target rollup of monitors",
      description:
        "One row per target with at least one monitor: primary = lowest id; status down if any is down, else up if any is up, else the primary's. `target_ids` repeated or comma-separated; present but empty answers [].",
    },
    async (c, { query, reply }) =>
      reply(await targetSummary({ ctx: verbContext(c), input: { target_type: query.target_type, target_ids: targetIds(c) } })),
  );
}
