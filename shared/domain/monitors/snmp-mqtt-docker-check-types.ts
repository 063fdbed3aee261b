// The registry entries (check-types.ts) of the snmp, mqtt and docker checks (issue 29 item 2; adr/0437).
// snmp GETs one OID and may compare its value; mqtt connects to a broker and may wait for a payload on a
// topic; docker reads one container's state from the Engine API over TCP at the monitor's host. Secrets
// (the community and the v3 keys, the broker password, the Engine client key) are sealed and answered
// masked. Their rules stay plain text (a v3 key: 8 characters or more, as the mask is) so the mask sent
// back on a PATCH passes; the executors check the shape. snmp's v3 (USM) keys: snmp-v3-fields.ts.
// Runtime-neutral, like check-types.ts.
import * as v from "valibot";
import { NullableText, oneOf, Port, timeoutField, WholeNumber } from "./config-fields.ts";
import { SNMP_V3_DEFAULTS, SNMP_V3_RULES, SNMP_V3_SECRET_KEYS, snmpConfigIssues } from "./snmp-v3-fields.ts";

export const SNMP_VERSIONS = ["v1", "v2c", "v3"] as const;
/** The MQTT protocol levels the mqtt check speaks: 4 (MQTT 3.1.1) and 5 (MQTT 5). */
export const MQTT_PROTOCOL_VERSIONS = [4, 5] as const;
export const SNMP_OPERATORS = ["==", "!=", ">", ">=", "<", "<=", "contains"] as const;
/** A numeric OID, dotted, at least two arcs (1.3.6.1.2.1.1.5.0); a leading dot is allowed. */
export const NUMERIC_OID = /^\.?[0-2](\.(0|[1-9]\d{0,9})){1,127}$/;
/** A container's name (Docker's own rule) or an id (hex, 12 to 64 digits, which the name rule also allows). */
export const CONTAINER_REF = /^\/?[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/;

const PemText = NullableText(65_536);

export const SNMP_MQTT_DOCKER_CHECK_TYPES = {
  snmp: {
    config: {
      port: v.optional(Port),
      version: v.optional(oneOf(SNMP_VERSIONS)),
      community: NullableText(255),
      ...SNMP_V3_RULES,
      oid: v.optional(v.nullable(v.pipe(v.string(), v.regex(NUMERIC_OID, "Must be a numeric OID such as 1.3.6.1.2.1.1.3.0.")))),
      operator: v.optional(v.nullable(oneOf(SNMP_OPERATORS))),
      expected_value: NullableText(1000),
      timeout: timeoutField(60),
    },
    defaults: { port: 161, version: "v2c", community: null, ...SNMP_V3_DEFAULTS, oid: null, operator: null, expected_value: null },
    timeout: { fallback: 5.0, max: 60 },
    runners: ["sidecar", "agent"],
    secretKeys: ["community", ...SNMP_V3_SECRET_KEYS],
    configIssues: snmpConfigIssues,
  },
  mqtt: {
    config: {
      port: v.optional(v.nullable(Port)),
      tls: v.optional(v.boolean()),
      ca_pem: PemText,
      username: NullableText(200),
      password: NullableText(1000),
      client_id: NullableText(128),
      protocol_version: v.optional(v.picklist(MQTT_PROTOCOL_VERSIONS, "Must be 4 (MQTT 3.1.1) or 5 (MQTT 5).")),
      topic: NullableText(1000),
      expected_payload: NullableText(1000),
      timeout: timeoutField(60),
    },
    defaults: {
      port: null,
      tls: false,
      ca_pem: null,
      username: null,
      password: null,
      client_id: null,
      protocol_version: 4,
      topic: null,
      expected_payload: null,
    },
    timeout: { fallback: 10.0, max: 60 },
    runners: ["sidecar", "agent"],
    secretKeys: ["password"],
  },
  docker: {
    config: {
      container: v.optional(v.nullable(v.pipe(v.string(), v.regex(CONTAINER_REF, "Must be a container name or id.")))),
      port: v.optional(v.nullable(Port)),
      tls: v.optional(v.boolean()),
      ca_pem: PemText,
      client_cert: PemText,
      client_key: PemText,
      require_healthy: v.optional(v.boolean()),
      max_restarts: v.optional(v.nullable(WholeNumber(0, 1_000_000))),
      timeout: timeoutField(60),
    },
    defaults: {
      container: null,
      port: null,
      tls: true,
      ca_pem: null,
      client_cert: null,
      client_key: null,
      require_healthy: true,
      max_restarts: null,
    },
    timeout: { fallback: 10.0, max: 60 },
    runners: ["sidecar", "agent"],
    secretKeys: ["client_key"],
  },
} as const;
