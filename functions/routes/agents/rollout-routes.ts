// [agents] staged fleet rollouts of agent updates (docs/agents.md, "Updating agents and fleet rollouts";
// docs/adr/0429, 0430): create, list, read one (with its targets), cancel, resume. Registered before
// /agents/{agent_id}, whose pattern would match /agents/rollouts.
import type { Context, Hono } from "hono";
import { RolloutCreateBody, RolloutList, RolloutListQuery, RolloutRead } from "../../../shared/schemas/agent-rollouts.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { NO_BINARIES, NO_RELEASE_KEY } from "../../../shared/verbs/agents/queue-update.ts";
import { cancelRollout } from "../../../shared/verbs/agents/rollouts/cancel-rollout.ts";
import { createRollout } from "../../../shared/verbs/agents/rollouts/create-rollout.ts";
import type { RolloutReadShape } from "../../../shared/verbs/agents/rollouts/present.ts";
import { getRollout, listRollouts } from "../../../shared/verbs/agents/rollouts/read-rollouts.ts";
import { resumeRollout } from "../../../shared/verbs/agents/rollouts/resume-rollout.ts";
import { parseIfMatch } from "../../../shared/verbs/resources/if-match.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { offerSource } from "./offer-source.ts";

const V1 = "/api/v1/agents/rollouts";
const ONE = `${V1}/:rollout_id`;
const params = IdParam("rollout_id");

/** The rollout's version (its updated_at in epoch ms) as the ETag cancel and resume may send back in If-Match. */
function withVersion(c: Context<AppEnv>, r: RolloutReadShape): RolloutReadShape {
  c.header("ETag", `W/"${Date.parse(r.updated_at)}"`);
  return r;
}

const TARGETS =
  "`targets` [{agent_id, hostname, wave, state, error, updated_at}], state pending | queued (the `update` was sent, or waits for the agent's next link) | started | succeeded | failed | rolled_back | skipped (`error` says why).";

export function rolloutRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: V1,
      tag: "agents",
      scope: createRollout.scope,
      body: RolloutCreateBody,
      response: { status: 201, schema: RolloutRead },
      errors: [400, 409],
      summary: "Start a staged rollout of an agent version",
      description:
        "Body (all optional): `version` (default the newest with a signed build), `agent_ids` (default every active agent on another version), " +
        "`wave_percent` 1-100 (default 20: the first wave is ceil(wave_percent% of the agents to update), the second the rest), " +
        "`failure_threshold` (default 1: that many failed or rolled_back agents stop the rollout), `wave_timeout_seconds` 10-604800 (default 600: " +
        "an agent with no terminal update.status by then counts as failed). Each agent gets the signed build for its own os/arch; one without such " +
        "a build, or already on the version, is a `skipped` target with the reason. The first wave is sent at once; a wave moves on when all its " +
        `targets are terminal. 400 "${NO_BINARIES}", "${NO_RELEASE_KEY}", or no build is signed; 422 for a version without a signed build, agents ` +
        "not found or not active, or nothing to update; 409 while another rollout is running or stopped (one at a time).",
    },
    async (c, { body, reply }) => {
      const rollout = await createRollout({ ctx: verbContext(c), input: { ...body, ...(await offerSource(c)) } });
      return reply(withVersion(c, rollout), 201);
    },
  );

  route(
    app,
    {
      method: "get",
      path: V1,
      tag: "agents",
      scope: listRollouts.scope,
      query: RolloutListQuery,
      response: { schema: RolloutList },
      summary: "List rollouts",
      description:
        "The list envelope: `limit`, `offset`, `sort` (id, created_at, state, version; default id), `direction`, `q` over the version, filter `state` " +
        "(running | stopped | completed | cancelled). Each item has `counts` per target state and `total`, without the targets.",
    },
    async (c, { query, reply }) => reply(await listRollouts({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "get",
      path: ONE,
      tag: "agents",
      scope: getRollout.scope,
      params,
      response: { schema: RolloutRead },
      summary: "One rollout with its targets",
      description: `state running | stopped (\`stop_reason\` names the failed agents and their errors) | completed | cancelled; \`counts\` per target state. ${TARGETS} The ETag is the rollout's version.`,
    },
    async (c, { params: p, reply }) => reply(withVersion(c, await getRollout({ ctx: verbContext(c), input: { id: p.rollout_id } }))),
  );

  const actions = [
    {
      what: "cancel",
      verb: cancelRollout,
      summary: "Cancel a running or stopped rollout",
      description:
        "Pending targets become skipped and are never sent; targets already queued or started keep following their agents' reports. " +
        "409 for a completed or cancelled rollout; with `If-Match` (the ETag of GET) a rollout changed since is a 412.",
    },
    {
      what: "resume",
      verb: resumeRollout,
      summary: "Resume a rollout its failure threshold stopped",
      description:
        "The failures so far are acknowledged (`failures_acknowledged`; the threshold counts those after the resume) and stay failed, never re-sent; " +
        "the next wave is sent once the current one has no target queued or started. 409 unless stopped; with `If-Match` a rollout changed since is a 412.",
    },
  ] as const;
  for (const { what, verb, summary, description } of actions)
    route(
      app,
      {
        method: "post",
        path: `${ONE}/${what}`,
        tag: "agents",
        scope: verb.scope,
        params,
        response: { schema: RolloutRead },
        errors: [409, 412],
        summary,
        description,
      },
      async (c, { params: p, reply }) =>
        reply(
          withVersion(c, await verb({ ctx: verbContext(c), input: { id: p.rollout_id, ifMatch: parseIfMatch(c.req.header("if-match")) } })),
        ),
    );
}
