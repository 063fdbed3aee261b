// [agents] the device key rotation request and the TLS pin routes (docs/agents.md, Rotating an agent's
// device key and TLS pinning): request and response shapes.
import * as v from "valibot";
import { IsoTime } from "../agents/payloads.ts";
import { TLS_PIN_MODES, TLS_PIN_PATTERN } from "../agents/tls-pin.ts";
import { writeBody } from "./fields.ts";

const Timestamp = v.nullable(v.string());
const Pin = v.pipe(
  v.string(),
  v.regex(TLS_PIN_PATTERN, "Must be a base64 SHA-256 of a SubjectPublicKeyInfo (44 characters, ending in =)."),
);
const Mode = v.picklist(TLS_PIN_MODES, `Must be one of: ${TLS_PIN_MODES.join(", ")}.`);

export const DeviceKeyRotationRequested = v.object({
  agent_id: v.number(),
  status: v.literal("requested"),
  requested_at: v.string(),
});

export const TlsPinRotateBody = writeBody({
  /** Give the pin, or the id of a stored certificate to take it from. */
  successor_pin: v.optional(Pin),
  certificate_id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  /** Default: self_signed for a given pin or a self-signed certificate, public for another certificate. */
  mode: v.optional(Mode),
  /** Default: seven days from now; at most 90 days. */
  expiry: v.optional(IsoTime),
});

export const TlsPinStatus = v.object({
  rotation: v.nullable(
    v.object({
      mode: Mode,
      successor_pin: v.string(),
      expiry: v.string(),
      certificate_id: v.nullable(v.number()),
      started_at: v.string(),
    }),
  ),
  active_certificate: v.nullable(v.object({ id: v.number(), type: v.string(), domain: v.string(), pin: v.string() })),
  fleet: v.object({ total: v.number(), acknowledged: v.number(), pending: v.number() }),
  agents: v.array(
    v.object({
      id: v.number(),
      name: v.nullable(v.string()),
      hostname: v.nullable(v.string()),
      tls_pin_kind: v.nullable(v.string()),
      tls_pins: v.array(v.string()),
      acknowledged: v.nullable(v.boolean()),
      last_seen_at: Timestamp,
    }),
  ),
});
