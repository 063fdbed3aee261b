// The registry entries (check-types.ts) of the grpc, websocket and udp checks (issue 29 item 2, ADR 0436):
// a gRPC health check (grpc.health.v1.Health/Check), a WebSocket upgrade with an optional message and
// reply, and a UDP datagram with an optional expected reply. An expected reply is a substring, never a
// regex: a user's regex would run on the sidecar's event loop. Runtime-neutral, like check-types.ts.
import * as v from "valibot";
import { Headers, NullableText, Port, timeoutField } from "./config-fields.ts";
import { HTTP_AUTH_DEFAULTS, HTTP_AUTH_RULES, HTTP_AUTH_SECRET_KEYS } from "./http-auth-fields.ts";
import { TLS_CERT_DEFAULTS, TLS_CERT_RULES } from "./tls-config-fields.ts";

/** A grpc service name as the health service knows it ("" or none: the server as a whole). */
const GRPC_SERVICE = /^[A-Za-z0-9_.\-/]{0,200}$/;

export const WsUrl = v.pipe(
  v.string(),
  v.maxLength(2000),
  v.check((s) => {
    try {
      const u = new URL(s);
      return u.protocol === "ws:" || u.protocol === "wss:";
    } catch {
      return false;
    }
  }, "Must be a ws:// or wss:// URL."),
);

/** Hex bytes, spaces allowed between them ("0a 1b ff"). */
export const HEX_BYTES = /^\s*(?:[0-9A-Fa-f]{2}\s*)*$/;

/** What a UDP payload may hold (a datagram stays well under 64 KiB). */
const MAX_PAYLOAD = 8192;

export const GRPC_WEBSOCKET_UDP_CHECK_TYPES = {
  grpc: {
    config: {
      port: v.optional(v.nullable(Port)),
      service: v.optional(v.nullable(v.pipe(v.string(), v.regex(GRPC_SERVICE, "Must be a gRPC service name.")))),
      tls: v.optional(v.boolean()),
      ...TLS_CERT_RULES,
      timeout: timeoutField(60),
    },
    defaults: { port: null, service: null, tls: false, ...TLS_CERT_DEFAULTS },
    timeout: { fallback: 10.0, max: 60 },
    runners: ["sidecar", "agent"],
  },
  websocket: {
    config: {
      url: v.optional(v.nullable(WsUrl)),
      headers: v.optional(Headers),
      ...HTTP_AUTH_RULES,
      send: NullableText(65_536),
      expected_reply: NullableText(1000),
      verify_tls: v.optional(v.boolean()),
      timeout: timeoutField(60),
    },
    defaults: { url: null, headers: {}, ...HTTP_AUTH_DEFAULTS, send: null, expected_reply: null, verify_tls: true },
    timeout: { fallback: 10.0, max: 60 },
    runners: ["sidecar", "agent"],
    secretKeys: HTTP_AUTH_SECRET_KEYS,
  },
  udp: {
    config: {
      port: v.optional(v.nullable(Port)),
      payload: NullableText(MAX_PAYLOAD),
      payload_hex: v.optional(
        v.nullable(v.pipe(v.string(), v.maxLength(MAX_PAYLOAD * 3), v.regex(HEX_BYTES, 'Must be hex bytes, such as "0a 1b ff".'))),
      ),
      expected_reply: NullableText(1000),
      timeout: timeoutField(60),
    },
    defaults: { port: null, payload: null, payload_hex: null, expected_reply: null },
    timeout: { fallback: 5.0, max: 60 },
    runners: ["sidecar", "agent"],
  },
} as const;
