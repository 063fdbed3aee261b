// [agents] the agents' keys and pins beyond the server key: ask an agent to rotate its device key, and
// the TLS pin rotation (status, start). device-key.ts and tls-pin.ts do the work.
import type { Hono } from "hono";
import { DeviceKeyRotationRequested, TlsPinRotateBody, TlsPinStatus } from "../../../shared/schemas/agent-keys.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { requestDeviceKeyRotation } from "../../../shared/verbs/agents/device-key.ts";
import { rotateTlsPin, tlsPinStatus } from "../../../shared/verbs/agents/tls-pin.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const V1 = "/api/v1/agents";

/** The fixed paths (/agents/tls-pin/...): registered before /agents/{agent_id}. */
export function tlsPinRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: `${V1}/tls-pin/status`,
      tag: "agents",
      scope: tlsPinStatus.scope,
      response: { schema: TlsPinStatus },
      summary: "The TLS pin rotation in progress and each active agent's pins",
      description:
        "`rotation`: the running rotation (null when none, or past its expiry). `active_certificate.pin`: the pin of the certificate served now, " +
        "for an agent's `tls_pin`. Per agent (at most 200 listed, `fleet` counts all): the `tls_pin_kind` and `tls_pins` it reported, and " +
        "`acknowledged`: whether it holds the rotation's successor pin (null when no rotation runs).",
    },
    async (c, { reply }) => reply(await tlsPinStatus({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post",
      path: `${V1}/tls-pin/rotate`,
      tag: "agents",
      scope: rotateTlsPin.scope,
      body: TlsPinRotateBody,
      response: { status: 201, schema: TlsPinStatus },
      summary: "Start a TLS pin rotation: every agent accepts the successor pin beside its current one until the expiry",
      description:
        "Exactly one of `successor_pin` (base64 SHA-256 of the successor certificate's SubjectPublicKeyInfo) and `certificate_id` (a stored " +
        "certificate, its leaf pinned). `mode` self_signed (the pin alone vouches for the server) or public (a public CA and the pin). " +
        "`expiry` (default 7 days, at most 90): past it agents accept only the successor. Linked agents hear `tls.pin.rotate` at once, others when " +
        "they link; a running rotation is superseded.",
    },
    async (c, { body, reply }) => reply(await rotateTlsPin({ ctx: verbContext(c), input: body }), 201),
  );
}

export function deviceKeyRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: `${V1}/:agent_id/rotate-device-key`,
      tag: "agents",
      scope: requestDeviceKeyRotation.scope,
      params: IdParam("agent_id"),
      response: { status: 202, schema: DeviceKeyRotationRequested },
      errors: [409],
      summary: "Ask a linked agent to rotate its device key",
      description:
        "The agent makes a successor key and announces it (`key.rotate {kind: device}`); the server accepts either key until the agent links " +
        "with the successor (`device_key_rotated` event) or the expiry passes. 409 when the agent is not active or not linked.",
    },
    async (c, { params, reply }) => reply(await requestDeviceKeyRotation({ ctx: verbContext(c), input: { id: params.agent_id } }), 202),
  );
}
