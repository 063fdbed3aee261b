// [notifications] /alerts* (ours, beyond the catalogue; docs/adr/0447-acknowledgement.md): the incidents and
// events, one incident's page with its alerts and deliveries, and its acknowledgement.
import type { Hono } from "hono";
import { AcknowledgeBody, AlertDetailOut, AlertList, AlertListQuery } from "../../../shared/schemas/alerts.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { acknowledgeAlert, unacknowledgeAlert } from "../../../shared/verbs/notifications/acknowledge.ts";
import { getAlert, incidentVersion, listAlerts } from "../../../shared/verbs/notifications/read-alerts.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const V1 = "/api/v1/alerts";
const AlertParam = IdParam("alert_id");
const ACK_RULES =
  "The acknowledgement is the incident's (its opening alert), whichever of its alerts is named; an event or a resolved incident is a 409 (`reason` not_incident | resolved). " +
  "Repeating it changes nothing. Audited; an `alert` event on the monitors stream tells open screens.";

export function alertRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: V1,
      tag: "notifications",
      scope: listAlerts.scope,
      query: AlertListQuery,
      response: { schema: AlertList },
      summary: "List incidents and events (state open | acknowledged | resolved | event)",
      description:
        "Each incident once, as the alert that opened it, with `alert_count` (its alerts, the recovery included), `last_alert_at`, `resolved_at`, `acknowledged_at`/`_by` and a `deliveries` summary; " +
        "the alerts that joined or resolved an incident are on its page. `state` open is neither resolved nor acknowledged; event is an alert with no incident (a test, a drift).",
    },
    async (c, { query, reply }) => reply(await listAlerts({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "get",
      path: `${V1}/:alert_id`,
      tag: "notifications",
      scope: getAlert.scope,
      params: AlertParam,
      response: { schema: AlertDetailOut },
      summary: "An incident (of any of its alerts) with its alerts in order and their deliveries",
      description: "The ETag changes with a new alert, an acknowledgement, the resolution and each delivery's outcome.",
    },
    async (c, { params, reply }) => {
      const incident = await getAlert({ ctx: verbContext(c), input: { id: params.alert_id } });
      c.header("ETag", `W/"${incidentVersion(incident)}"`);
      return reply(incident);
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${V1}/:alert_id/acknowledge`,
      tag: "notifications",
      scope: acknowledgeAlert.scope,
      params: AlertParam,
      body: AcknowledgeBody,
      response: { schema: AlertDetailOut },
      errors: [409],
      summary: "Acknowledge the incident of an alert: someone has it in hand (re-notification stops)",
      description: `Optional \`note\` (at most 500 characters). ${ACK_RULES}`,
    },
    async (c, { params, body, reply }) =>
      reply(await acknowledgeAlert({ ctx: verbContext(c), input: { id: params.alert_id, note: body?.note } })),
  );

  route(
    app,
    {
      method: "delete",
      path: `${V1}/:alert_id/acknowledge`,
      tag: "notifications",
      scope: unacknowledgeAlert.scope,
      params: AlertParam,
      response: { schema: AlertDetailOut },
      errors: [409],
      summary: "Un-acknowledge the incident of an alert: nobody has it in hand any more",
      description: ACK_RULES,
    },
    async (c, { params, reply }) => reply(await unacknowledgeAlert({ ctx: verbContext(c), input: { id: params.alert_id } })),
  );
}
