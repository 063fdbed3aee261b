// The config fields the monitor form shows per check type (shared/domain/monitors/config.ts has the API's
// rules), and the conversions between a stored config and the form's text. The API stores only the keys
// sent and applies its defaults to the rest, so an empty field is left out; keys the form has no field for
// (an http check's json_path, a tcp check's port list, ...) are kept as loaded, since a PATCH replaces the
// whole config.

import type { operations } from "../api/schema.d.ts";
import { CHECK_TYPE_REGISTRY, DNS_RECORD_TYPES, HTTP_AUTH_TYPES, HTTP_METHODS } from "../../../shared/domain/monitors/check-types.ts";
import { MQTT_PROTOCOL_VERSIONS, SNMP_OPERATORS, SNMP_VERSIONS } from "../../../shared/domain/monitors/snmp-mqtt-docker-check-types.ts";
import {
  SNMP_AUTH_PROTOCOLS,
  SNMP_KEY_MIN,
  SNMP_PRIV_PROTOCOLS,
  SNMP_SECURITY_LEVELS,
} from "../../../shared/domain/monitors/snmp-v3-fields.ts";
import { GROUP_MODES } from "../../../shared/domain/monitors/group.ts";
import { PUSH_DEFAULTS, PUSH_EXPECTS } from "../../../shared/domain/monitors/push-expectation.ts";

/** The check types the API takes (its OpenAPI enum): CONFIG_FIELDS must have an entry for each. */
export type CheckType = operations["postApiV1Monitors"]["requestBody"]["content"]["application/json"]["check_type"];

type Kind = "text" | "multiline" | "number" | "select" | "checkbox" | "list" | "headers" | "secret";

export interface ConfigField {
  key: string;
  label: string;
  kind: Kind;
  options?: readonly string[];
  /** A select whose options are numbers: sent as a number (mqtt's protocol_version). */
  numeric?: boolean;
  hint?: string;
  /** A checkbox's state when the stored config does not have the key (the API's default). */
  fallback?: boolean;
  /** Shown only when another key has one of these values (a password only with basic auth); a list: each holds. */
  when?: Condition | readonly Condition[];
}

interface Condition {
  key: string;
  values: readonly string[];
  /** The other key's value while the form has none (the API's default). */
  unset: string;
}

// snmp's v3 (USM) fields: with version v3; the auth key with authNoPriv or authPriv, the privacy key with authPriv.
const SNMP_V3: Condition = { key: "version", values: ["v3"], unset: "v2c" };
const SNMP_AUTH = [SNMP_V3, { key: "security_level", values: ["authNoPriv", "authPriv"], unset: "noAuthNoPriv" }] as const;
const SNMP_PRIV = [SNMP_V3, { key: "security_level", values: ["authPriv"], unset: "noAuthNoPriv" }] as const;
const USM_KEY_HINT = `Stored sealed; at least ${SNMP_KEY_MIN} characters`;

const timeout = (type: CheckType): ConfigField => ({
  key: "timeout",
  label: "Timeout (seconds)",
  kind: "number",
  hint: `Empty: ${CHECK_TYPE_REGISTRY[type].timeout.fallback} s`,
});

// The database checks (issue 29 item 2): the host is the monitor's; the password is stored sealed.
const databasePort = (type: "postgres" | "mysql" | "redis"): ConfigField => ({
  key: "port",
  label: "Port",
  kind: "number",
  hint: `Empty: ${String(CHECK_TYPE_REGISTRY[type].defaults.port)}`,
});
const databasePassword: ConfigField = {
  key: "password",
  label: "Password",
  kind: "secret",
  hint: "Stored sealed; ******** keeps the stored one",
};
const sqlFields = (type: "postgres" | "mysql", user: string): readonly ConfigField[] => [
  databasePort(type),
  { key: "database", label: "Database", kind: "text", hint: type === "postgres" ? "Empty: the user's name" : "Empty: none" },
  { key: "username", label: "User name", kind: "text", hint: `Empty: ${user}` },
  databasePassword,
  { key: "query", label: "Query", kind: "text", hint: type === "postgres" ? "Empty: select 1" : "Empty: a PING" },
  { key: "expected_value", label: "Expected value", kind: "text", hint: "The first column of the first row, as text (optional)" },
  { key: "tls", label: "Use TLS (certificate verified)", kind: "checkbox", fallback: false },
  timeout(type),
];
const DATABASE_FIELDS = {
  postgres: sqlFields("postgres", "postgres"),
  mysql: sqlFields("mysql", "root"),
  redis: [
    databasePort("redis"),
    { key: "database", label: "Database number", kind: "number", hint: "0 to 15; empty: 0" },
    { key: "username", label: "User name", kind: "text", hint: "Empty: the default user" },
    databasePassword,
    { key: "key", label: "Key", kind: "text", hint: "Must exist (optional)" },
    { key: "expected_value", label: "Expected value", kind: "text", hint: "The key's value must equal it (optional)" },
    { key: "tls", label: "Use TLS (certificate verified)", kind: "checkbox", fallback: false },
    timeout("redis"),
  ],
} satisfies Partial<Record<CheckType, readonly ConfigField[]>>;
/** The certificate rules of the tls and smtp types (shared/domain/monitors/tls-config-fields.ts). */
const TLS_CERT_FIELDS: readonly ConfigField[] = [
  { key: "server_name", label: "Server name (SNI)", kind: "text", hint: "The name the certificate must be for; empty: the host" },
  { key: "verify_chain", label: "Verify the certificate chain", kind: "checkbox", fallback: true },
  { key: "verify_hostname", label: "Verify the host name", kind: "checkbox", fallback: true },
  {
    key: "expiry_days",
    label: "Certificate expiry warning (days)",
    kind: "number",
    hint: "Down when it expires within this many days; empty: 14",
  },
  { key: "ca_pem", label: "Trusted CA (PEM)", kind: "multiline", hint: "Trust these CAs instead of the system's (optional)" },
];

/** Basic or bearer authentication (http, websocket: shared/domain/monitors/http-auth-fields.ts). */
const HTTP_AUTH_FIELDS: readonly ConfigField[] = [
  { key: "auth_type", label: "Authentication", kind: "select", options: HTTP_AUTH_TYPES },
  { key: "username", label: "User name", kind: "text", when: { key: "auth_type", values: ["basic"], unset: "none" } },
  {
    key: "password",
    label: "Password",
    kind: "secret",
    when: { key: "auth_type", values: ["basic"], unset: "none" },
    hint: "Stored sealed; ******** keeps the stored one",
  },
  {
    key: "token",
    label: "Bearer token",
    kind: "secret",
    when: { key: "auth_type", values: ["bearer"], unset: "none" },
    hint: "Stored sealed; ******** keeps the stored one",
  },
];

export const CONFIG_FIELDS: Record<CheckType, readonly ConfigField[]> = {
  http: [
    { key: "url", label: "URL", kind: "text", hint: "http:// or https://; empty: http://<host>/" },
    { key: "method", label: "Method", kind: "select", options: HTTP_METHODS },
    {
      key: "accepted_statuses",
      label: "Expected status codes",
      kind: "list",
      hint: "Comma-separated statuses or ranges, e.g. 200-299, 301; empty: 200-299",
    },
    { key: "keyword", label: "Keyword", kind: "text", hint: "The body must contain it (optional)" },
    { key: "keyword_invert", label: "Up when the keyword is absent", kind: "checkbox", fallback: false },
    { key: "headers", label: "Request headers", kind: "headers", hint: "One per line: Name: value" },
    { key: "body", label: "Request body", kind: "text" },
    ...HTTP_AUTH_FIELDS,
    { key: "follow_redirects", label: "Follow redirects", kind: "checkbox", fallback: true },
    {
      key: "max_redirects",
      label: "At most this many redirects",
      kind: "number",
      hint: "Empty: 10",
      when: { key: "follow_redirects", values: ["true"], unset: "true" },
    },
    { key: "verify_tls", label: "Verify the TLS certificate", kind: "checkbox", fallback: true },
    {
      key: "cert_expiry_days",
      label: "Certificate expiry warning (days)",
      kind: "number",
      hint: "Down when the certificate expires within this many days (optional)",
    },
    timeout("http"),
  ],
  tcp: [{ key: "port", label: "Port", kind: "number" }, timeout("tcp")],
  icmp: [timeout("icmp")],
  dns: [
    { key: "record_type", label: "Record type", kind: "select", options: DNS_RECORD_TYPES },
    { key: "resolver", label: "Resolver", kind: "text", hint: "Empty: the system's resolver" },
    { key: "expected_values", label: "Expected values", kind: "list", hint: "Comma-separated; empty: any answer" },
    timeout("dns"),
  ],
  ...DATABASE_FIELDS,
  ssh: [
    { key: "port", label: "Port", kind: "number", hint: "Empty: 22" },
    { key: "expected_banner", label: "Expected banner text", kind: "text", hint: "The SSH-2.0-... line must contain it (optional)" },
    timeout("ssh"),
  ],
  tls: [{ key: "port", label: "Port", kind: "number", hint: "Empty: 443" }, ...TLS_CERT_FIELDS, timeout("tls")],
  smtp: [
    { key: "port", label: "Port", kind: "number", hint: "Empty: 25" },
    { key: "ehlo_name", label: "EHLO name", kind: "text", hint: "Empty: localhost" },
    { key: "starttls", label: "Require STARTTLS", kind: "checkbox", fallback: false },
    ...TLS_CERT_FIELDS.map((f) => ({ ...f, when: { key: "starttls", values: ["true"], unset: "false" } })),
    timeout("smtp"),
  ],
  grpc: [
    { key: "port", label: "Port", kind: "number", hint: "Required" },
    { key: "service", label: "Service name", kind: "text", hint: "As the health service knows it; empty: the whole server" },
    { key: "tls", label: "Use TLS", kind: "checkbox", fallback: false },
    ...TLS_CERT_FIELDS.map((f) => ({ ...f, when: { key: "tls", values: ["true"], unset: "false" } })),
    timeout("grpc"),
  ],
  websocket: [
    { key: "url", label: "URL", kind: "text", hint: "ws:// or wss://; empty: ws://<host>/" },
    { key: "headers", label: "Request headers", kind: "headers", hint: "One per line: Name: value" },
    ...HTTP_AUTH_FIELDS,
    { key: "send", label: "Message to send", kind: "text", hint: "Sent as text once upgraded (optional)" },
    { key: "expected_reply", label: "Expected reply", kind: "text", hint: "A message must contain this text (optional)" },
    { key: "verify_tls", label: "Verify the TLS certificate", kind: "checkbox", fallback: true },
    timeout("websocket"),
  ],
  udp: [
    { key: "port", label: "Port", kind: "number", hint: "Required" },
    { key: "payload", label: "Payload (text)", kind: "text", hint: "Empty: an empty datagram" },
    { key: "payload_hex", label: "Payload (hex)", kind: "text", hint: "Instead of text, e.g. 0a 1b ff" },
    { key: "expected_reply", label: "Expected reply", kind: "text", hint: "The reply must contain this text; empty: any reply" },
    timeout("udp"),
  ],
  // snmp, mqtt, docker (issue 29 item 2): the community, the v3 keys, the broker password and the client key
  // are stored sealed. snmp's v3 fields show with version v3, the keys as its security level needs them.
  snmp: [
    { key: "oid", label: "OID", kind: "text", hint: "Numeric, e.g. 1.3.6.1.2.1.1.3.0 (required)" },
    { key: "version", label: "SNMP version", kind: "select", options: SNMP_VERSIONS },
    {
      key: "community",
      label: "Community",
      kind: "secret",
      hint: "Stored sealed; empty: public",
      when: { ...SNMP_V3, values: ["v1", "v2c"] },
    },
    { key: "username", label: "SNMPv3 user name", kind: "text", hint: "Required", when: SNMP_V3 },
    {
      key: "security_level",
      label: "Security level",
      kind: "select",
      options: SNMP_SECURITY_LEVELS,
      hint: "Default: noAuthNoPriv",
      when: SNMP_V3,
    },
    { key: "auth_protocol", label: "Auth protocol", kind: "select", options: SNMP_AUTH_PROTOCOLS, hint: "Default: SHA", when: SNMP_AUTH },
    { key: "auth_key", label: "Auth key", kind: "secret", hint: `${USM_KEY_HINT}; ******** keeps the stored one`, when: SNMP_AUTH },
    {
      key: "priv_protocol",
      label: "Privacy protocol",
      kind: "select",
      options: SNMP_PRIV_PROTOCOLS,
      hint: "Default: AES (128)",
      when: SNMP_PRIV,
    },
    { key: "priv_key", label: "Privacy key", kind: "secret", hint: `${USM_KEY_HINT}; ******** keeps the stored one`, when: SNMP_PRIV },
    { key: "port", label: "Port", kind: "number", hint: "Empty: 161" },
    { key: "operator", label: "Comparison", kind: "select", options: SNMP_OPERATORS, hint: "Default: any value is up" },
    { key: "expected_value", label: "Compared with", kind: "text", hint: "A number for > >= < <=; with no comparison: ==" },
    timeout("snmp"),
  ],
  mqtt: [
    { key: "tls", label: "Use TLS (certificate verified)", kind: "checkbox", fallback: false },
    { key: "port", label: "Port", kind: "number", hint: "Empty: 1883, or 8883 with TLS" },
    { key: "ca_pem", label: "Trusted CA (PEM)", kind: "multiline", when: { key: "tls", values: ["true"], unset: "false" } },
    { key: "username", label: "User name", kind: "text", hint: "Empty: anonymous" },
    databasePassword,
    { key: "client_id", label: "Client id", kind: "text", hint: "Empty: monitor-check-<random>" },
    {
      key: "protocol_version",
      label: "MQTT protocol version",
      kind: "select",
      options: MQTT_PROTOCOL_VERSIONS.map(String),
      numeric: true,
      hint: "4: MQTT 3.1.1 (default); 5: MQTT 5",
    },
    { key: "topic", label: "Topic", kind: "text", hint: "Subscribe and wait for a message (optional; + and # allowed)" },
    { key: "expected_payload", label: "Expected payload text", kind: "text", hint: "The first message must contain it (needs a topic)" },
    timeout("mqtt"),
  ],
  docker: [
    { key: "container", label: "Container", kind: "text", hint: "Its name or id (required)" },
    { key: "tls", label: "Engine API over TLS", kind: "checkbox", fallback: true },
    { key: "port", label: "Engine API port", kind: "number", hint: "Empty: 2376 with TLS, 2375 without" },
    { key: "ca_pem", label: "Engine CA (PEM)", kind: "multiline", when: { key: "tls", values: ["true"], unset: "true" } },
    { key: "client_cert", label: "Client certificate (PEM)", kind: "multiline", when: { key: "tls", values: ["true"], unset: "true" } },
    {
      key: "client_key",
      label: "Client key (PEM)",
      kind: "secret",
      hint: "Stored sealed; ******** keeps the stored one (pasted on one line is fine)",
      when: { key: "tls", values: ["true"], unset: "true" },
    },
    { key: "require_healthy", label: "Require healthy (when it has a healthcheck)", kind: "checkbox", fallback: true },
    { key: "max_restarts", label: "At most this many restarts", kind: "number", hint: "Empty: any number" },
    timeout("docker"),
  ],
  // A group's state comes from its members (docs/adr/0440); each member names its group on its own form.
  group: [
    { key: "mode", label: "Up when", kind: "select", options: GROUP_MODES, hint: "all: every member up; any: one; at_least: a number" },
    {
      key: "min_up",
      label: "At least this many members up",
      kind: "number",
      when: { key: "mode", values: ["at_least"], unset: "all" },
    },
  ],
  // Heartbeat monitors (docs/monitors.md, Push monitors): what the pushes must keep up with.
  push: [
    { key: "expect", label: "Expect a push", kind: "select", options: PUSH_EXPECTS, hint: "interval: every interval; cron: on a schedule" },
    {
      key: "grace_secs",
      label: "Grace (seconds)",
      kind: "number",
      hint: `Late by this much after the interval is still in time; empty: ${PUSH_DEFAULTS.grace_secs}`,
      when: { key: "expect", values: ["interval"], unset: "interval" },
    },
    {
      key: "cron",
      label: "Schedule (cron)",
      kind: "text",
      hint: "When the job runs, e.g. 0 2 * * * (daily at 02:00)",
      when: { key: "expect", values: ["cron"], unset: "interval" },
    },
    {
      key: "tolerance_secs",
      label: "Tolerance (seconds)",
      kind: "number",
      hint: `A push this much before or after the scheduled time counts; empty: ${PUSH_DEFAULTS.tolerance_secs}`,
      when: { key: "expect", values: ["cron"], unset: "interval" },
    },
    {
      key: "timezone",
      label: "Time zone",
      kind: "text",
      hint: "The schedule's IANA time zone, e.g. Europe/Berlin; empty: UTC",
      when: { key: "expect", values: ["cron"], unset: "interval" },
    },
  ],
};

/** The form's choice of types, in the order of CONFIG_FIELDS. */
export const CHECK_TYPES = Object.keys(CONFIG_FIELDS) as CheckType[];

export type ConfigValues = Record<string, string>;

/** The form's text for each field of `type` from a stored config; the other keys apart, to be sent back. */
export function configValues(type: CheckType, config: Record<string, unknown>): { values: ConfigValues; kept: Record<string, unknown> } {
  const values: ConfigValues = {};
  const kept = { ...config };
  for (const f of CONFIG_FIELDS[type]) {
    const v = config[f.key];
    delete kept[f.key];
    if (f.kind === "checkbox") values[f.key] = String(typeof v === "boolean" ? v : f.fallback);
    else if (v === undefined || v === null) values[f.key] = "";
    else if (f.kind === "list" && Array.isArray(v)) values[f.key] = v.join(", ");
    else if (f.kind === "headers" && typeof v === "object")
      values[f.key] = Object.entries(v)
        .map(([k, h]) => `${k}: ${String(h)}`)
        .join("\n");
    else values[f.key] = String(v);
  }
  return { values, kept };
}

/** A checkbox's state: as set in the form, else the API's default (a new form starts with no values). */
export function checked(f: ConfigField, values: ConfigValues): boolean {
  const v = values[f.key];
  return v === undefined || v === "" ? f.fallback === true : v === "true";
}

/** Whether a field applies given the other values. */
export function shown(f: ConfigField, values: ConfigValues): boolean {
  const conditions: readonly Condition[] = f.when === undefined ? [] : "key" in f.when ? [f.when] : f.when;
  return conditions.every((c) => c.values.includes(values[c.key] || c.unset));
}

/**
 * The config to send: each shown, non-empty field converted (a number that is not one is sent as typed,
 * so the API's 422 names it), on top of the kept keys.
 */
export function configBody(type: CheckType, values: ConfigValues, kept: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...kept };
  for (const f of CONFIG_FIELDS[type]) {
    const raw = (values[f.key] ?? "").trim();
    if (!shown(f, values)) continue;
    if (f.kind === "checkbox") {
      // Left out at the API's default, so the stored config holds only what the operator changed.
      if (checked(f, values) !== f.fallback) out[f.key] = checked(f, values);
      continue;
    }
    if (raw === "") continue;
    if (f.kind === "number" || f.numeric) out[f.key] = raw !== "" && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    else if (f.kind === "list")
      out[f.key] = raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    else if (f.kind === "headers") out[f.key] = headersOf(raw);
    else out[f.key] = raw;
  }
  return out;
}

/** "Name: value" lines; a line without a colon is a name with an empty value (the API checks the name). */
function headersOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const at = line.indexOf(":");
    if (at < 0) out[line.trim()] = "";
    else out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}
