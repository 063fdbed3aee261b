// [agents] reads about the whole fleet: the lists, presence, sparklines, the registry's defaults and which
// agents could run a probe. Registered before /agents/{agent_id}, whose pattern would match these names.
import type { Hono } from "hono";
import {
  AgentIdsQuery,
  AgentList,
  AgentListQuery,
  AgentPresenceList,
  EligibleProbeAgents,
  Grants,
  MetricsSeries,
  PendingAgentsQuery,
  ProbeEligibleQuery,
} from "../../../shared/schemas/agents.ts";
import { agentMetricsSeries, agentPresence } from "../../../shared/verbs/agents/read-telemetry.ts";
import { capabilityDefaults, listAgents, listPendingAgents } from "../../../shared/verbs/agents/read-agents.ts";
import { probeEligibleAgents } from "../../../shared/verbs/agents/read-probes.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { agentIds } from "./ids-query.ts";
import { offerSource } from "./offer-source.ts";

const V1 = "/api/v1/agents";

export function fleetRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: V1,
      tag: "agents",
      scope: listAgents.scope,
      query: AgentListQuery,
      response: { schema: AgentList },
      summary: "List agents",
      description:
        "The list envelope: `limit`, `offset`, `sort` (name, hostname, status, enrolled_at, last_seen_at, id; `name` falls back to the hostname), `direction`, `q` over name and hostname, filters `status` and `hardware_id`. " +
        "Each item has `available_version` (the newest signed build for its os/arch newer than its agent_version, else null) and `update` (the queued update: version, state queued | sent | started, rollout_id; else null).",
    },
    async (c, { query, reply }) => reply(await listAgents({ ctx: verbContext(c), input: { ...query, ...(await offerSource(c)) } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${V1}/pending`,
      tag: "agents",
      scope: listPendingAgents.scope,
      query: PendingAgentsQuery,
      response: { schema: AgentList },
      summary: "List agents waiting for a decision",
      description: "Like GET /agents with status=pending.",
    },
    async (c, { query, reply }) => reply(await listPendingAgents({ ctx: verbContext(c), input: { ...query, ...(await offerSource(c)) } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${V1}/capability-defaults`,
      tag: "agents",
      scope: capabilityDefaults.scope,
      response: { schema: Grants },
      summary: "The grants approval gives unless told otherwise",
    },
    async (c, { reply }) => reply(await capabilityDefaults({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get",
      path: `${V1}/presence`,
      tag: "agents",
      scope: agentPresence.scope,
      query: AgentIdsQuery,
      response: { schema: AgentPresenceList },
      summary: "Presence, grants, hardware and the latest summary of agents",
      description:
        "`ids` repeated or comma-separated (at most 200); present but empty answers []; absent answers every agent not rejected or revoked. Online: active, linked, and heard from within 60 s.",
    },
    async (c, { reply }) => reply(await agentPresence({ ctx: verbContext(c), input: { ids: agentIds(c) } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${V1}/metrics/series`,
      tag: "agents",
      scope: agentMetricsSeries.scope,
      query: AgentIdsQuery,
      response: { schema: MetricsSeries },
      summary: "The last 30 minutes of agents' CPU, memory and network, in 75 s buckets",
      description:
        "At most 24 points per agent, epoch-aligned, oldest first; agents without samples in the window are left out. `ids` as for presence.",
    },
    async (c, { reply }) => reply(await agentMetricsSeries({ ctx: verbContext(c), input: { ids: agentIds(c) } })),
  );

  route(
    app,
    {
      method: "get",
      path: `${V1}/probe-eligible`,
      tag: "agents",
      scope: probeEligibleAgents.scope,
      query: ProbeEligibleQuery,
      response: { schema: EligibleProbeAgents },
      summary: "Which active agents could run a probe",
      description:
        "`host` and `check_type` (icmp, tcp, http, dns), or `monitor_id`. One entry per active agent with `eligible` and the first failing `reason`: " +
        "capability_disabled, agent_offline, readiness_unknown, readiness_unavailable (probe.<check_type>), unresolved_host, out_of_scope, at_capacity.",
    },
    async (c, { query, reply }) => reply(await probeEligibleAgents({ ctx: verbContext(c), input: query })),
  );
}
