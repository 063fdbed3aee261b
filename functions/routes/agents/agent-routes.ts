// [agents] one agent: read, rename / annotate / link (PATCH), delete, its events, telemetry and probes.
import type { Hono } from "hono";
import {
  AgentDetail,
  AgentEventList,
  AgentEventsQuery,
  AgentPatchBody,
  AgentProbes,
  AgentRead,
  AgentTelemetry,
  HistoryQuery,
  TelemetryHistory,
} from "../../../shared/schemas/agents.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { listAgentEvents } from "../../../shared/verbs/agents/agent-events.ts";
import { deleteAgent } from "../../../shared/verbs/agents/delete-agent.ts";
import { patchAgent } from "../../../shared/verbs/agents/patch-agent.ts";
import { getAgent } from "../../../shared/verbs/agents/read-agents.ts";
import { agentProbes } from "../../../shared/verbs/agents/read-probes.ts";
import { agentTelemetry, agentTelemetryHistory } from "../../../shared/verbs/agents/read-telemetry.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { offerSource } from "./offer-source.ts";

const ONE = "/api/v1/agents/:agent_id";
const params = IdParam("agent_id");

export function agentRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: ONE,
      tag: "agents",
      scope: getAgent.scope,
      params,
      response: { schema: AgentDetail },
      summary: "One agent, with its grants, proposal and duplicate flag",
      description:
        "Besides AgentRead: `available_version` (the newest signed build for its os/arch newer than its agent_version, else null) and `update` (the queued update: version, state queued | sent | started, rollout_id, queued_at, sent_at; else null).",
    },
    async (c, { params: p, reply }) => reply(await getAgent({ ctx: verbContext(c), input: { id: p.agent_id, ...(await offerSource(c)) } })),
  );

  route(
    app,
    {
      method: "patch",
      path: ONE,
      tag: "agents",
      scope: patchAgent.scope,
      params,
      body: AgentPatchBody,
      response: { schema: AgentRead },
      summary: "Rename, annotate or link an agent to a hardware node",
      description:
        "`name`, `notes`, `hardware_id` (null unlinks); other AgentRead fields sent back are ignored, unknown fields refused. A new link records a host_link_changed event.",
    },
    async (c, { params: p, body, reply }) => reply(await patchAgent({ ctx: verbContext(c), input: { id: p.agent_id, patch: body } })),
  );

  route(
    app,
    {
      method: "delete",
      path: ONE,
      tag: "agents",
      scope: deleteAgent.scope,
      params,
      response: { status: 204, description: "Deleted" },
      errors: [409],
      summary: "Delete an agent and its history (409 while probe runs are queued or in flight)",
      description: "Its events, probe runs, samples and hourly rollups go with it; a live link is cut.",
    },
    async (c, { params: p }) => {
      await deleteAgent({ ctx: verbContext(c), input: { id: p.agent_id } });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "get",
      path: `${ONE}/events`,
      tag: "agents",
      scope: listAgentEvents.scope,
      params,
      query: AgentEventsQuery,
      response: { schema: AgentEventList },
      summary: "What happened to an agent, newest first",
      description: "The list envelope (`limit`, `offset`); sort is always created_at descending. `event_type` narrows it.",
    },
    async (c, { params: p, query, reply }) => reply(await listAgentEvents({ ctx: verbContext(c), input: { id: p.agent_id, ...query } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${ONE}/telemetry`,
      tag: "agents",
      scope: agentTelemetry.scope,
      params,
      response: { schema: AgentTelemetry },
      summary: "An agent's latest telemetry frame, its collectors' readiness, grant and spool",
    },
    async (c, { params: p, reply }) => reply(await agentTelemetry({ ctx: verbContext(c), input: { id: p.agent_id } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${ONE}/telemetry/history`,
      tag: "agents",
      scope: agentTelemetryHistory.scope,
      params,
      query: HistoryQuery,
      response: { schema: TelemetryHistory },
      summary: "An agent's telemetry averaged into buckets",
      description:
        "`range` 1h (30 s buckets, at most 120 points), 6h (60 s, 360), 24h (5 min, 288), 7d (30 min, 336) or 30d (1 h, 720); oldest first. 7d and 30d use the hourly rollups where raw samples are gone.",
    },
    async (c, { params: p, query, reply }) =>
      reply(await agentTelemetryHistory({ ctx: verbContext(c), input: { id: p.agent_id, range: query.range } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${ONE}/probes`,
      tag: "agents",
      scope: agentProbes.scope,
      params,
      response: { schema: AgentProbes },
      summary: "An agent's probe capacity, its monitor assignments and recent probe runs",
      description:
        "`assignments` lists the monitors that use this agent (none until monitors exist); `recent_runs` the last 20 runs it was asked for.",
    },
    async (c, { params: p, reply }) => reply(await agentProbes({ ctx: verbContext(c), input: { id: p.agent_id } })),
  );
}
