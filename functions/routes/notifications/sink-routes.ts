// [notifications] /notifications/sinks*: CRUD, toggle and test (spec/catalogue.tsv, group notifications, docs/architecture.md, API contracts).
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  SinkCreateBody,
  SinkList,
  SinkListQuery,
  SinkOut,
  SinkPatchBody,
  StatusOk,
  TestResult,
} from "../../../shared/schemas/notifications.ts";
import { createSink } from "../../../shared/verbs/notifications/create-sink.ts";
import { deleteSink, patchSink, toggleSink } from "../../../shared/verbs/notifications/change-sink.ts";
import { listSinks } from "../../../shared/verbs/notifications/read-sinks.ts";
import { awaitTestAnswer } from "../../../shared/verbs/notifications/test-answer.ts";
import { testSink } from "../../../shared/verbs/notifications/test-sink.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const V1 = "/api/v1/notifications/sinks";
const SinkParam = IdParam("sink_id");

export function sinkRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: V1,
      tag: "notifications",
      scope: listSinks.scope,
      query: SinkListQuery,
      response: { schema: SinkList },
      summary: "List notification sinks (secrets masked)",
    },
    async (c, { query, reply }) => reply(await listSinks({ ctx: verbContext(c), input: { query } })),
  );

  route(
    app,
    {
      method: "post",
      path: V1,
      tag: "notifications",
      scope: createSink.scope,
      body: SinkCreateBody,
      response: { status: 201, schema: SinkOut },
      errors: [503],
      summary: "Create a notification sink",
      description:
        "provider_type webhook `{url, secret?}` (a `whsec_` secret is generated when none is given and answered once, in `secret`), slack/discord/teams `{webhook_url}`, " +
        "ntfy `{base_url?, topic, token?, priority?}`, gotify `{base_url, token, priority?}`, telegram `{base_url?, bot_token, chat_id}`, " +
        "pagerduty `{routing_key, region?, base_url?, source?}`, opsgenie `{api_key, region?, base_url?, priority?}`, splunk_oncall `{api_key, routing_key, base_url?}`, signl4 `{team_secret, base_url?, service?, alerting_scenario?}`, pushover `{token, user, device?, priority?, emergency?, retry?, expire?, base_url?}`, twilio `{account_sid, auth_token, from, to, base_url?}`, pushbullet `{access_token, device_iden?, channel_tag?, base_url?}`, alertmanager `{base_url, alertname?, hold_hours?, username?, password?, bearer_token?}`, " +
        "matrix `{base_url, access_token, room_id}`, mattermost `{webhook_url, channel?, username?, icon_url?}`, rocket_chat `{webhook_url, channel?}`, google_chat `{webhook_url}`, zulip `{base_url, bot_email, api_key, stream, topic?}`, webex `{base_url?, bot_token, to}`, home_assistant `{base_url, token, service}`, signal `{base_url, number, recipients}`, " +
        "bark `{base_url?, device_key, group?, level?}`, apprise `{base_url, config_key? | urls?, tag?}`, feishu `{webhook_url? | token?, region?, signing_secret?, format?}`, dingtalk `{webhook_url, signing_secret?}`, wecom `{webhook_url}`, line `{base_url?, channel_access_token, to}`, " +
        "email `{to, from_email?, subject_prefix?, smtp_host, smtp_port?, smtp_username?, smtp_password?, smtp_secure?, smtp_verify_tls?}`, " +
        "http_request `{method?, url, headers?, content_type?, request_body?}`. Every type also takes `title_template?` and `body_template?` " +
        "(mustache over the alert's fields, docs/notifications.md; one naming an unknown field or not parsing answers 422). Unknown keys answer 422.",
    },
    async (c, { body, reply }) => reply(await createSink({ ctx: verbContext(c), input: { body } })),
  );

  route(
    app,
    {
      method: "patch",
      path: `${V1}/:sink_id`,
      tag: "notifications",
      scope: patchSink.scope,
      params: SinkParam,
      body: SinkPatchBody,
      response: { schema: SinkOut },
      errors: [503],
      summary: "Change a sink (a secret omitted, empty or sent back masked keeps the stored one)",
    },
    async (c, { params, body, reply }) => reply(await patchSink({ ctx: verbContext(c), input: { id: params.sink_id, body } })),
  );

  route(
    app,
    {
      method: "delete",
      path: `${V1}/:sink_id`,
      tag: "notifications",
      scope: deleteSink.scope,
      params: SinkParam,
      response: { schema: StatusOk },
      summary: "Delete a sink with its routes and deliveries",
    },
    async (c, { params, reply }) => reply(await deleteSink({ ctx: verbContext(c), input: { id: params.sink_id } })),
  );

  route(
    app,
    {
      method: "put",
      path: `${V1}/:sink_id/toggle`,
      tag: "notifications",
      scope: toggleSink.scope,
      params: SinkParam,
      response: { schema: SinkOut },
      summary: "Enable or disable a sink",
    },
    async (c, { params, reply }) => reply(await toggleSink({ ctx: verbContext(c), input: { id: params.sink_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${V1}/:sink_id/test`,
      tag: "notifications",
      scope: testSink.scope,
      params: SinkParam,
      response: { schema: TestResult },
      summary: "Send a test notification to this sink and answer the receiver's answer",
      description:
        "Answers 200 `{ok, error, delivery_id, state, http_status, duration_ms, attempt_outcome}`. A sink that cannot send (missing URL or token) answers ok false at once. " +
        "Otherwise a test delivery (one attempt, no retries) is queued for the notification worker and the request waits, up to NOTIFICATION_TEST_WAIT_MS (20 s), for that attempt: " +
        "ok is true only when the receiver accepted it; a refusal answers ok false with the receiver's HTTP status and the error (`Endpoint returned HTTP 500`). " +
        "When no worker sent it in time: ok false, state pending, and the delivery stays queued. The delivery shows in GET /notifications/deliveries either way.",
    },
    async (c, { params, reply }) => {
      const ctx = verbContext(c);
      const queued = await testSink({ ctx, input: { id: params.sink_id } });
      return reply(await awaitTestAnswer({ ctx, input: { queued, waitMs: c.get("deps").config.NOTIFICATION_TEST_WAIT_MS } }));
    },
  );
}
