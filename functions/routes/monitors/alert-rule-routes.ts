// [monitors] threshold alert rules (ours; docs/alert-rules.md, docs/adr/0438): rules over the metrics the
// product collects (agent host telemetry, live metrics, capacity forecasts), their per-node state, and a
// rule body judged over the last hour of stored samples for the console's rules screen.
import type { Context, Hono } from "hono";
import { METRIC_NAMES_TEXT } from "../../../shared/domain/alert-rules/metrics.ts";
import {
  AlertRule,
  AlertRuleBody,
  AlertRuleList,
  AlertRuleListQuery,
  AlertRulePatchBody,
  type AlertRuleShape,
  AlertRuleStateList,
  AlertRuleTestResult,
} from "../../../shared/schemas/alert-rules.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { readRuleState } from "../../../shared/verbs/alert-rules/rule-state.ts";
import { createRule, deleteRule, getRule, listRules, patchRule } from "../../../shared/verbs/alert-rules/rules.ts";
import { testRule } from "../../../shared/verbs/alert-rules/test-rule.ts";
import { parseIfMatch } from "../../../shared/verbs/resources/if-match.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BASE = "/api/v1/alert-rules";
const ONE = `${BASE}/:rule_id`;
const params = IdParam("rule_id");

/** The rule's version (its updated_at in epoch ms) as the ETag a PATCH sends back in If-Match. */
function withVersion(c: Context<AppEnv>, r: AlertRuleShape): AlertRuleShape {
  c.header("ETag", `W/"${Date.parse(r.updated_at)}"`);
  return r;
}

const SHAPE = [
  `\`metric\`: one of ${METRIC_NAMES_TEXT} (another name is a 422 naming \`metric\`).`,
  "`operator` `>` or `<` against `threshold`; `aggregation` last | avg | p50 | p75 | p90 | p95 | p99 over `window_secs` (1-3600, default 300);",
  "`for_secs` (0-86400) the breach must hold before it fires; `clear_threshold` (default the threshold) where a firing rule clears: at most the threshold for `>`, at least it for `<`, else a 422;",
  "`severity` info | warning | critical (default warning); `scope_kind` node (`scope_node_id`, a hardware id) | tag (`scope_tag`) | site (`scope_site_id`) | all (default).",
  "Firing and clearing raise the alerts `metric.firing` / `metric.cleared` (target the hardware) through the notification routes, and an `alert_rule` event on the telemetry stream.",
].join(" ");

export function alertRuleRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: BASE,
      tag: "monitors",
      scope: listRules.scope,
      query: AlertRuleListQuery,
      response: { schema: AlertRuleList },
      summary: "List threshold alert rules",
      description:
        "The list envelope; sort name, id, created_at, metric, severity; filters `enabled`, `metric`; `q` over name and metric. `firing_count`: nodes it fires on now.",
    },
    async (c, { query, reply }) => reply(await listRules({ ctx: verbContext(c), input: query })),
  );
  route(
    app,
    {
      method: "post",
      path: BASE,
      tag: "monitors",
      scope: createRule.scope,
      body: AlertRuleBody,
      response: { status: 201, schema: AlertRule },
      summary: "Create a threshold alert rule",
      description: SHAPE,
    },
    async (c, { body, reply }) => reply(withVersion(c, await createRule({ ctx: verbContext(c), input: { body } })), 201),
  );
  // A fixed path before /alert-rules/{rule_id}.
  route(
    app,
    {
      method: "post",
      path: `${BASE}/test`,
      tag: "monitors",
      scope: testRule.scope,
      body: AlertRuleBody,
      response: { schema: AlertRuleTestResult },
      summary: "Judge a rule over the last hour of stored samples",
      description: `Nothing is stored. The body is a rule as for create (the same 422s); the answer lists, per node in scope, the transitions it would have made (pending, ok, firing, cleared) with their time and value, oldest first, and the nodes left firing. Filesystem metrics keep no history; forecast metrics are judged once on the current forecast. ${SHAPE}`,
    },
    async (c, { body, reply }) => reply(await testRule({ ctx: verbContext(c), input: { body } })),
  );
  route(
    app,
    {
      method: "get",
      path: ONE,
      tag: "monitors",
      scope: getRule.scope,
      params,
      response: { schema: AlertRule },
      summary: "One threshold alert rule",
      description: "The ETag is the rule's version.",
    },
    async (c, { params: p, reply }) => reply(withVersion(c, await getRule({ ctx: verbContext(c), input: { id: p.rule_id } }))),
  );
  route(
    app,
    {
      method: "patch",
      path: ONE,
      tag: "monitors",
      scope: patchRule.scope,
      params,
      body: AlertRulePatchBody,
      response: { schema: AlertRule },
      errors: [412],
      summary: "Change a threshold alert rule",
      description: `Only the fields given change; the result is checked whole. With \`If-Match\` (the ETag of GET) a rule changed since is a 412. A change to what the rule judges (metric, condition, window, scope, enabled) clears the nodes it left firing (\`metric.cleared\` with \`detail.reason\` \`rule_changed\`) and starts its nodes again from ok; a new name, description or severity keeps their state. A delete clears them likewise (\`rule_deleted\`). ${SHAPE}`,
    },
    async (c, { params: p, body, reply }) =>
      reply(
        withVersion(
          c,
          await patchRule({ ctx: verbContext(c), input: { id: p.rule_id, body, ifMatch: parseIfMatch(c.req.header("if-match")) } }),
        ),
      ),
  );
  route(
    app,
    {
      method: "delete",
      path: ONE,
      tag: "monitors",
      scope: deleteRule.scope,
      params,
      response: { status: 204, description: "Deleted" },
      summary: "Delete a threshold alert rule",
      description:
        "The nodes the rule left firing get their `metric.cleared` (`detail.reason` `rule_deleted`), so their incidents are resolved.",
    },
    async (c, { params: p }) => {
      await deleteRule({ ctx: verbContext(c), input: { id: p.rule_id } });
      return c.body(null, 204);
    },
  );
  route(
    app,
    {
      method: "get",
      path: `${ONE}/state`,
      tag: "monitors",
      scope: readRuleState.scope,
      params,
      response: { schema: AlertRuleStateList },
      summary: "Where a rule stands on each node",
      description:
        "`items` [{hardware_id, hardware_name, state ok | pending | firing, pending_since, firing_since, last_value, changed_at}], firing first; as of each node's last transition (the value is the one judged then). A node the rule never left ok is absent.",
    },
    async (c, { params: p, reply }) => reply(await readRuleState({ ctx: verbContext(c), input: { id: p.rule_id } })),
  );
}
