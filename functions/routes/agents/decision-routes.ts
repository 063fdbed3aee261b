// [agents] what administrators decide about an agent: approve, reject, revoke, its grants, an update.
// Each is one verb that records an agent event and an audit entry and tells the sidecar on commit.
import type { Hono } from "hono";
import { AgentRead, ApproveBody, CapabilitiesBody, RevokeBody, UpdateBody, UpdateQueued } from "../../../shared/schemas/agents.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { approveAgent } from "../../../shared/verbs/agents/approve-agent.ts";
import { NO_BINARIES, NO_RELEASE_KEY, queueAgentUpdate } from "../../../shared/verbs/agents/queue-update.ts";
import { rejectAgent } from "../../../shared/verbs/agents/reject-agent.ts";
import { revokeAgent } from "../../../shared/verbs/agents/revoke-agent.ts";
import { setAgentCapabilities } from "../../../shared/verbs/agents/set-capabilities.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const ONE = "/api/v1/agents/:agent_id";
const params = IdParam("agent_id");

export function decisionRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: `${ONE}/approve`,
      tag: "agents",
      scope: approveAgent.scope,
      params,
      body: ApproveBody,
      response: { schema: AgentRead },
      errors: [409],
      summary: "Approve a pending agent",
      description:
        "Body (optional): `host_link_action` accept (the proposed node) | select (`hardware_id`) | create (a node from the agent's hostname and address) | unlinked " +
        "(default: select when `hardware_id` is given, else unlinked), `capabilities` {name: true | false | {enabled, config}} over the registry's defaults. 409 unless pending.",
    },
    async (c, { params: p, body, reply }) => reply(await approveAgent({ ctx: verbContext(c), input: { id: p.agent_id, ...body } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${ONE}/reject`,
      tag: "agents",
      scope: rejectAgent.scope,
      params,
      response: { schema: AgentRead },
      errors: [409],
      summary: "Reject a pending agent (for good)",
    },
    async (c, { params: p, reply }) => reply(await rejectAgent({ ctx: verbContext(c), input: { id: p.agent_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${ONE}/revoke`,
      tag: "agents",
      scope: revokeAgent.scope,
      params,
      body: RevokeBody,
      response: { schema: AgentRead },
      errors: [409],
      summary: "Revoke an active or pending agent",
      description: "`reason`: at least 3 non-blank characters. Its queued and dispatched probe runs are cancelled and its link is cut.",
    },
    async (c, { params: p, body, reply }) =>
      reply(await revokeAgent({ ctx: verbContext(c), input: { id: p.agent_id, reason: body.reason } })),
  );

  route(
    app,
    {
      method: "put",
      path: `${ONE}/capabilities`,
      tag: "agents",
      scope: setAgentCapabilities.scope,
      params,
      body: CapabilitiesBody,
      response: { schema: AgentRead },
      errors: [409],
      summary: "Change an agent's grants (only the capabilities named)",
      description:
        "`capabilities` {host_telemetry | remote_probe | local_discovery: true | false | {enabled, config}}; config merges over what is stored; unknown names or keys answer 422 naming them.",
    },
    async (c, { params: p, body, reply }) =>
      reply(await setAgentCapabilities({ ctx: verbContext(c), input: { id: p.agent_id, capabilities: body.capabilities } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${ONE}/update`,
      tag: "agents",
      scope: queueAgentUpdate.scope,
      params,
      body: UpdateBody,
      response: { schema: UpdateQueued },
      errors: [400, 409],
      summary: "Ask an active agent to install a build",
      description: `\`version\` (optional; default the newest built for the agent's os/arch). 400 "${NO_BINARIES}", "${NO_RELEASE_KEY}" (agents install only signed builds), or the build is unsigned; 404 when there is no such build for its platform.`,
    },
    async (c, { params: p, body, reply }) => {
      const source = c.get("deps").agentBinaries;
      const builds = await source?.list();
      return reply(
        await queueAgentUpdate({
          ctx: verbContext(c),
          input: { id: p.agent_id, version: body.version, builds, releaseKey: await source?.releaseKey() },
        }),
      );
    },
  );
}
