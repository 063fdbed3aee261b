// [monitors] one monitor: read, PATCH, delete, pause / resume / check now, events, history, probe runs and
// uptime.
import type { Context, Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  HistoryPoints,
  HistoryQuery,
  MonitorEventList,
  MonitorEventsQuery,
  MonitorPatchBody,
  MonitorDetail,
  MonitorRead,
  type MonitorReadShape,
  ProbeRunList,
  ProbeRunsQuery,
  Uptime,
} from "../../../shared/schemas/monitors.ts";
import { monitorHistory, listMonitorEvents, monitorProbeRuns } from "../../../shared/verbs/monitors/history.ts";
import { checkMonitor, deleteMonitor, pauseMonitor, resumeMonitor } from "../../../shared/verbs/monitors/lifecycle.ts";
import { patchMonitor } from "../../../shared/verbs/monitors/patch-monitor.ts";
import { parseIfMatch } from "../../../shared/verbs/resources/if-match.ts";
import { getMonitor } from "../../../shared/verbs/monitors/read-monitors.ts";
import { monitorUptime } from "../../../shared/verbs/monitors/uptime.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const ONE = "/api/v1/monitors/:monitor_id";
const params = IdParam("monitor_id");

/** The monitor's version (its updated_at in epoch ms, monitorVersion in monitor-row.ts) as the ETag an edit sends back in If-Match. */
function withVersion<T extends MonitorReadShape>(c: Context<AppEnv>, m: T): T {
  c.header("ETag", `W/"${Date.parse(m.updated_at)}"`);
  return m;
}

export function monitorRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: ONE,
      tag: "monitors",
      scope: getMonitor.scope,
      params,
      response: { schema: MonitorDetail },
      summary: "One monitor",
      description:
        "The monitor, with `vantage_results` for a multi-vantage monitor (docs/adr/0441): each vantage point (`sidecar` or an agent's id) with its last result, whether it is fresh enough to count in the quorum, and the agent's last dispatch. Empty for a single-point monitor. `heartbeats`: its last 50 results, oldest first, each with the state the monitor was in after it (docs/adr/0465).",
    },
    async (c, { params: p, reply }) => reply(withVersion(c, await getMonitor({ ctx: verbContext(c), input: { id: p.monitor_id } }))),
  );

  route(
    app,
    {
      method: "patch",
      path: ONE,
      tag: "monitors",
      scope: patchMonitor.scope,
      params,
      body: MonitorPatchBody,
      response: { schema: MonitorRead },
      errors: [412, 503],
      summary: "Change a monitor (check_type cannot change)",
      description:
        "Only the fields given change; with `If-Match` (the ETag of GET, the monitor's version) a monitor changed since is a 412; MonitorRead fields sent back are ignored; a different `check_type` is a 422. A `config` is checked against the stored type and replaces the stored one (secrets: `********` keeps the stored value, null clears it). A new `probe_agent_id` cancels the runs in flight (monitor_reassigned).",
    },
    async (c, { params: p, body, reply }) =>
      reply(
        withVersion(
          c,
          await patchMonitor({
            ctx: verbContext(c),
            input: { id: p.monitor_id, patch: body, ifMatch: parseIfMatch(c.req.header("if-match")) },
          }),
        ),
      ),
  );

  route(
    app,
    {
      method: "delete",
      path: ONE,
      tag: "monitors",
      scope: deleteMonitor.scope,
      params,
      response: { status: 204, description: "Deleted" },
      summary: "Delete a monitor with its events, samples and uptime",
    },
    async (c, { params: p }) => {
      await deleteMonitor({ ctx: verbContext(c), input: { id: p.monitor_id } });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${ONE}/pause`,
      tag: "monitors",
      scope: pauseMonitor.scope,
      params,
      response: { status: 200, schema: MonitorRead },
      summary: "Pause a monitor (event paused; runs in flight cancelled)",
    },
    async (c, { params: p, reply }) => reply(await pauseMonitor({ ctx: verbContext(c), input: { id: p.monitor_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${ONE}/resume`,
      tag: "monitors",
      scope: resumeMonitor.scope,
      params,
      response: { status: 200, schema: MonitorRead },
      summary: "Resume a monitor (event resumed; due at once)",
    },
    async (c, { params: p, reply }) => reply(await resumeMonitor({ ctx: verbContext(c), input: { id: p.monitor_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${ONE}/check`,
      tag: "monitors",
      scope: checkMonitor.scope,
      params,
      response: { status: 200, schema: MonitorRead },
      errors: [409],
      summary: "Check a monitor now",
      description:
        "Makes it due now and wakes the runner. 409 with `reason`: `monitor_paused`, or for an agent-probed monitor why the agent cannot take it (previous_run_in_flight, agent_offline, ...).",
    },
    async (c, { params: p, reply }) => reply(await checkMonitor({ ctx: verbContext(c), input: { id: p.monitor_id } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${ONE}/events`,
      tag: "monitors",
      scope: listMonitorEvents.scope,
      params,
      query: MonitorEventsQuery,
      response: { schema: MonitorEventList },
      summary: "A monitor's state changes and user actions, newest first",
      description:
        "The list envelope; `limit` 1..500 (default 50); `event_type` up, down, pending, paused or resumed. `suppressed_by` names the alert a notification was folded into, and `upstream` who that alert was about: its monitor and target, the upstream whose failure suppressed this one's alert; `suppressed_dependents` on a down event lists the monitors whose alerts were folded into the one it raised.",
    },
    async (c, { params: p, query, reply }) =>
      reply(await listMonitorEvents({ ctx: verbContext(c), input: { id: p.monitor_id, ...query } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${ONE}/history`,
      tag: "monitors",
      scope: monitorHistory.scope,
      params,
      query: HistoryQuery,
      response: { schema: HistoryPoints },
      summary: "One metric of a monitor's results, oldest first",
      description:
        "`metric` avail (1/0), latency_ms (default), packet_loss_pct, http_status, cert_days_remaining, or one a check reports beside them (latency_min_ms, latency_max_ms, jitter_ms); `hours` 1..720 (default 24).",
    },
    async (c, { params: p, query, reply }) => reply(await monitorHistory({ ctx: verbContext(c), input: { id: p.monitor_id, ...query } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${ONE}/probe-runs`,
      tag: "monitors",
      scope: monitorProbeRuns.scope,
      params,
      query: ProbeRunsQuery,
      response: { schema: ProbeRunList },
      summary: "The probe runs an agent was asked for on this monitor, newest first",
      description: "The list envelope; `limit` 1..200 (default 20).",
    },
    async (c, { params: p, query, reply }) => reply(await monitorProbeRuns({ ctx: verbContext(c), input: { id: p.monitor_id, ...query } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${ONE}/uptime`,
      tag: "monitors",
      scope: monitorUptime.scope,
      params,
      response: { schema: Uptime },
      summary: "Uptime over 24 h, 7 d, 30 d, 365 d and all time",
      description: "Percentages of up checks, 1 decimal, null without data; coverage = observed minutes (checks x interval) of the window.",
    },
    async (c, { params: p, reply }) => reply(await monitorUptime({ ctx: verbContext(c), input: { id: p.monitor_id } })),
  );
}
