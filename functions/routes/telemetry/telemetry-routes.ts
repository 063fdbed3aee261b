// [telemetry] a node's latest sample and series, its poll configuration, "poll now", the entity views
// and the push of samples (docs/architecture.md, API contracts). Every /telemetry/... alias is the same handler registered on
// a second path, so the two always answer alike.
import type { Hono } from "hono";
import type * as v from "valibot";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  EntityParams,
  EntityTelemetry,
  MAX_SAMPLES_PER_PUSH,
  PollQueued,
  PushResult,
  SamplesBody,
  Telemetry,
  TelemetryConfig,
  TelemetryConfigBody,
  TelemetryQuery,
} from "../../../shared/schemas/telemetry.ts";
import { pushSamples } from "../../../shared/verbs/telemetry/push-samples.ts";
import { entityTelemetry, hardwareTelemetry } from "../../../shared/verbs/telemetry/read-telemetry.ts";
import { requestPoll } from "../../../shared/verbs/telemetry/request-poll.ts";
import { setTelemetryConfig } from "../../../shared/verbs/telemetry/set-config.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route, type RouteDef, type RouteHandler } from "../../openapi/route.ts";

const V1 = "/api/v1";
/** The catalogue's primary path and its /telemetry alias for each per-node operation. */
const nodePaths = (suffix: string) => [`${V1}/hardware/:hardware_id/telemetry${suffix}`, `${V1}/telemetry/:hardware_id/telemetry${suffix}`];
const params = IdParam("hardware_id");

type Schema = v.GenericSchema | undefined;
/** Registers one operation with one handler on each of `paths` (the catalogue's path and its alias). */
function onPaths<P extends Schema, Q extends Schema, B extends Schema, R extends Schema>(
  app: Hono<AppEnv>,
  paths: string[],
  def: Omit<RouteDef<P, Q, B, R>, "path">,
  handler: RouteHandler<P, Q, B, R>,
): void {
  for (const path of paths) route(app, { ...def, path }, handler);
}

export function telemetryRoutes(app: Hono<AppEnv>): void {
  onPaths(
    app,
    nodePaths(""),
    {
      method: "get",
      tag: "telemetry",
      scope: hardwareTelemetry.scope,
      params,
      query: TelemetryQuery,
      response: { schema: Telemetry },
      summary: "A node's latest sample and its series (newest first)",
      description:
        "`?since=&until=&limit=` or `?hours=24` (the default: the last 24 hours, at most 1000 rows). Each row names its `source` (push, snmp, hourly_agg, an integration).",
    },
    async (c, { params: p, query, reply }) =>
      reply(await hardwareTelemetry({ ctx: verbContext(c), input: { hardwareId: p.hardware_id!, query } })),
  );

  onPaths(
    app,
    nodePaths("/config"),
    {
      method: "post",
      tag: "telemetry",
      scope: setTelemetryConfig.scope,
      params,
      body: TelemetryConfigBody,
      response: { schema: TelemetryConfig },
      summary: "Set how the sidecar polls this node",
      description:
        "Fields given change; the rest keep their values (defaults: snmp, enabled, the node's IP as host, port 161, v2c, every 60 s). `community` and the SNMPv3 `auth_key`/`priv_key` are write-only: answers carry `community_set`, `auth_key_set`, `priv_key_set`. With `snmp_version: v3`, `username`, `security_level` and the protocols (docs/adr/0489).",
    },
    async (c, { params: p, body, reply }) =>
      reply(await setTelemetryConfig({ ctx: verbContext(c), input: { hardwareId: p.hardware_id!, config: body } })),
  );

  onPaths(
    app,
    nodePaths("/poll"),
    {
      method: "post",
      tag: "telemetry",
      scope: requestPoll.scope,
      params,
      response: { status: 202, schema: PollQueued },
      errors: [409],
      summary: "Ask the sidecar to poll this node now",
      description:
        "Queued for the sidecar (NOTIFY telemetry {hardware_id, action: poll}); 409 when the node has no enabled SNMP configuration.",
    },
    async (c, { params: p, reply }) => reply(await requestPoll({ ctx: verbContext(c), input: { hardwareId: p.hardware_id! } })),
  );

  onPaths(
    app,
    [`${V1}/hardware/entity/:entity_type/:entity_id`, `${V1}/telemetry/entity/:entity_type/:entity_id`],
    {
      method: "get",
      tag: "telemetry",
      scope: entityTelemetry.scope,
      params: EntityParams,
      query: TelemetryQuery,
      response: { schema: EntityTelemetry },
      summary: "Telemetry of an entity: a node's own, a compute unit's host's, a service's hardware",
      description:
        "A service reads the hardware it runs on, directly or through its compute unit; an entity on no hardware answers `hardware_id: null` and an empty series.",
    },
    async (c, { params: p, query, reply }) =>
      reply(await entityTelemetry({ ctx: verbContext(c), input: { entityType: p.entity_type, entityId: p.entity_id, query } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${V1}/hardware/:hardware_id/telemetry/samples`,
      tag: "telemetry",
      scope: pushSamples.scope,
      params,
      body: SamplesBody,
      response: { status: 201, schema: PushResult },
      summary: "Push samples for this node (source push)",
      description:
        `1-${MAX_SAMPLES_PER_PUSH} samples per request. Percentages 0-100; \`ts\` ISO 8601, at most 60 s ahead of the server and not older than telemetry_warm_days. ` +
        "Any bad sample is named by index (`samples.3.cpu_pct`) and nothing is stored. `status` (up|down) changes become status history. " +
        "Telemetry paths are rate limited (15 requests a minute in the normal profile): send batches, not one request per sample.",
    },
    async (c, { params: p, body, reply }) =>
      reply(await pushSamples({ ctx: verbContext(c), input: { hardwareId: p.hardware_id!, samples: body.samples } })),
  );
}
