// [notifications] /notifications/escalation-policies*: who is paged, and when, while an incident stays
// open and unacknowledged (docs/adr/0448-escalation-policies.md). A route names one (escalation_policy_id).
import type { Context, Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  EscalationPolicyBody,
  EscalationPolicyList,
  EscalationPolicyListQuery,
  EscalationPolicyOut,
  EscalationPolicyPatchBody,
  type EscalationPolicyShape,
} from "../../../shared/schemas/notification-escalation.ts";
import {
  createEscalationPolicy,
  deleteEscalationPolicy,
  getEscalationPolicy,
  listEscalationPolicies,
  patchEscalationPolicy,
} from "../../../shared/verbs/notifications/escalation-policies.ts";
import { parseIfMatch } from "../../../shared/verbs/resources/if-match.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BASE = "/api/v1/notifications/escalation-policies";
const ONE = `${BASE}/:policy_id`;
const params = IdParam("policy_id");

/** The policy's version (its updated_at in epoch ms) as the ETag a PATCH or DELETE sends back in If-Match. */
function withVersion(c: Context<AppEnv>, p: EscalationPolicyShape): EscalationPolicyShape {
  c.header("ETag", `W/"${Date.parse(p.updated_at)}"`);
  return p;
}

const SHAPE =
  "`steps` [{after_minutes, sink_ids}] in order: step 1 notifies its sinks `after_minutes` after the incident's alert was sent if it is still open and unacknowledged, each next step " +
  "`after_minutes` after the one before; a step with no sink or an unknown sink is a 422 naming `steps[i].sink_ids`. `repeat` (0-10): how many more times the whole sequence runs. " +
  "`renotify_every_minutes` (optional): the route's own sinks are notified again every N minutes while the incident is open and unacknowledged. A recovery or an acknowledgement ends it.";

export function escalationPolicyRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: BASE,
      tag: "notifications",
      scope: listEscalationPolicies.scope,
      query: EscalationPolicyListQuery,
      response: { schema: EscalationPolicyList },
      summary: "List escalation policies",
      description: "The list envelope; sort name, id, created_at; `q` over the name. `route_ids`: the routes naming each.",
    },
    async (c, { query, reply }) => reply(await listEscalationPolicies({ ctx: verbContext(c), input: query })),
  );
  route(
    app,
    {
      method: "post",
      path: BASE,
      tag: "notifications",
      scope: createEscalationPolicy.scope,
      body: EscalationPolicyBody,
      response: { status: 201, schema: EscalationPolicyOut },
      summary: "Create an escalation policy",
      description: SHAPE,
    },
    async (c, { body, reply }) => reply(withVersion(c, await createEscalationPolicy({ ctx: verbContext(c), input: body })), 201),
  );
  route(
    app,
    {
      method: "get",
      path: ONE,
      tag: "notifications",
      scope: getEscalationPolicy.scope,
      params,
      response: { schema: EscalationPolicyOut },
      summary: "One escalation policy",
      description: "The ETag is the policy's version.",
    },
    async (c, { params: p, reply }) =>
      reply(withVersion(c, await getEscalationPolicy({ ctx: verbContext(c), input: { id: p.policy_id } }))),
  );
  route(
    app,
    {
      method: "patch",
      path: ONE,
      tag: "notifications",
      scope: patchEscalationPolicy.scope,
      params,
      body: EscalationPolicyPatchBody,
      response: { schema: EscalationPolicyOut },
      errors: [412],
      summary: "Change an escalation policy",
      description: `Only the fields given change. With \`If-Match\` (the ETag of GET) a policy changed since is a 412. Incidents already escalating follow the new steps from their next one. ${SHAPE}`,
    },
    async (c, { params: p, body, reply }) =>
      reply(
        withVersion(
          c,
          await patchEscalationPolicy({
            ctx: verbContext(c),
            input: { id: p.policy_id, body, ifMatch: parseIfMatch(c.req.header("if-match")) },
          }),
        ),
      ),
  );
  route(
    app,
    {
      method: "delete",
      path: ONE,
      tag: "notifications",
      scope: deleteEscalationPolicy.scope,
      params,
      response: { status: 204, description: "Deleted" },
      errors: [409, 412],
      summary: "Delete an escalation policy",
      description:
        "A policy a route names is a 409 listing `route_ids`: change those routes first. With `If-Match` a policy changed since is a 412.",
    },
    async (c, { params: p }) => {
      await deleteEscalationPolicy({ ctx: verbContext(c), input: { id: p.policy_id, ifMatch: parseIfMatch(c.req.header("if-match")) } });
      return c.body(null, 204);
    },
  );
}
