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
      summary: "Queue a test notification to this sink",
      description:
        "Answers 200 `{ok, error, delivery_id, state}`. A sink that cannot send (missing URL or token) answers ok false at once; otherwise a test delivery is queued " +
        "for the sidecar's notification worker and its outcome shows in GET /notifications/deliveries.",
    },
    async (c, { params, reply }) => {
      const deps = c.get("deps");
      return reply(
        await testSink({ ctx: verbContext(c), input: { id: params.sink_id, maxAttempts: deps.config.NOTIFICATION_MAX_ATTEMPTS } }),
      );
    },
  );
}
