// [discovery] agents' discovery: which agents could scan a CIDR, one agent's discovery state, and its pause.
import type { Hono } from "hono";
import { AgentDiscoveryOut, EligibleAgentList, EligibleAgentsQuery } from "../../../shared/schemas/discovery-agents.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { listEligibleAgents, readAgentDiscovery, setAgentDiscoveryPaused } from "../../../shared/verbs/discovery/agents/agent-discovery.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const ONE = "/api/v1/agents/:agent_id/discovery";
const params = IdParam("agent_id");
const REASONS =
  "agent_inactive, capability_disabled, agent_offline, readiness_unknown / readiness_degraded / readiness_unavailable (discovery.tcp), out_of_scope (with `detail`, e.g. prefix_too_wide:10.0.0.0/8), paused";

export function agentsDiscoveryRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/discovery/eligible-agents",
      tag: "discovery",
      scope: listEligibleAgents.scope,
      query: EligibleAgentsQuery,
      response: { schema: EligibleAgentList },
      summary: "Which active agents could run a discovery scan",
      description: `One entry per active agent; with \`cidr\` (a CIDR, range or address) \`in_scope\` says whether it lies in the agent's scope and under its max_addresses_per_job. \`eligible\` with the first failing \`reason\`: ${REASONS}.`,
    },
    async (c, { query, reply }) => reply(await listEligibleAgents({ ctx: verbContext(c), input: { cidr: query.cidr } })),
  );

  route(
    app,
    {
      method: "get",
      path: ONE,
      tag: "discovery",
      scope: readAgentDiscovery.scope,
      params,
      response: { schema: AgentDiscoveryOut },
      summary: "An agent's discovery: eligibility, scope, pause and its latest scan jobs",
    },
    async (c, { params: p, reply }) => reply(await readAgentDiscovery({ ctx: verbContext(c), input: { id: p.agent_id } })),
  );

  for (const [action, paused] of [
    ["pause", true],
    ["resume", false],
  ] as const)
    route(
      app,
      {
        method: "post",
        path: `${ONE}/${action}`,
        tag: "discovery",
        scope: setAgentDiscoveryPaused.scope,
        params,
        response: { schema: AgentDiscoveryOut },
        summary: paused
          ? "Pause discovery on one agent (its queued scans wait)"
          : "Resume discovery on one agent (its queued scans go out)",
        description:
          "Sets the local_discovery grant's auto_discovery_paused; idempotent. Audited as agents.discovery_paused / agents.discovery_resumed.",
      },
      async (c, { params: p, reply }) => reply(await setAgentDiscoveryPaused({ ctx: verbContext(c), input: { id: p.agent_id, paused } })),
    );
}
