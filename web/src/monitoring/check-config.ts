// The config fields the monitor form shows per check type (shared/domain/monitors/config.ts has the API's
// rules), and the conversions between a stored config and the form's text. The API stores only the keys
// sent and applies its defaults to the rest, so an empty field is left out; keys the form has no field for
// (an http check's json_path, a tcp check's port list, ...) are kept as loaded, since a PATCH replaces the
// whole config. Check type names (http, snmp, ...) are protocol names, shown as they are.

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

// Labels and hints are catalogue keys (`t(f.label)`, `t(f.hint, f.hintValues)` where shown). Marked here
// rather than with i18n.ts's i18nKey: that module touches the document when loaded, and Node's unit tests
// load this one.
const i18nKey = <K extends string>(key: K): K => key;

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
  /** The hint's {{variables}}. */
  hintValues?: Record<string, string | number>;
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

const timeout = (type: CheckType): ConfigField => ({
  key: "timeout",
  label: i18nKey("monitoring:check.timeoutSeconds"),
  kind: "number",
  hint: i18nKey("monitoring:check.emptySeconds"),
  hintValues: { secs: CHECK_TYPE_REGISTRY[type].timeout.fallback },
});

// The database checks (issue 29 item 2): the host is the monitor's; the password is stored sealed.
const databasePort = (type: "postgres" | "mysql" | "redis"): ConfigField => ({
  key: "port",
  label: i18nKey("monitoring:check.port"),
  kind: "number",
  hint: i18nKey("monitoring:check.emptyValue"),
  hintValues: { value: String(CHECK_TYPE_REGISTRY[type].defaults.port) },
});
const databasePassword: ConfigField = {
  key: "password",
  label: i18nKey("monitoring:check.password"),
  kind: "secret",
  hint: i18nKey("monitoring:check.storedSealedKeepsTheStored"),
};
const sqlFields = (type: "postgres" | "mysql", user: string): readonly ConfigField[] => [
  databasePort(type),
  {
    key: "database",
    label: i18nKey("monitoring:check.database"),
    kind: "text",
    hint: type === "postgres" ? i18nKey("monitoring:check.emptyTheUserSName") : i18nKey("monitoring:check.emptyNone"),
  },
  {
    key: "username",
    label: i18nKey("monitoring:check.userName"),
    kind: "text",
    hint: i18nKey("monitoring:check.emptyValue"),
    hintValues: { value: user },
  },
  databasePassword,
  {
    key: "query",
    label: i18nKey("monitoring:check.query"),
    kind: "text",
    hint: type === "postgres" ? i18nKey("monitoring:check.emptySelect1") : i18nKey("monitoring:check.emptyAPing"),
  },
  {
    key: "expected_value",
    label: i18nKey("monitoring:check.expectedValue"),
    kind: "text",
    hint: i18nKey("monitoring:check.theFirstColumnOfThe"),
  },
  { key: "tls", label: i18nKey("monitoring:check.useTlsCertificateVerified"), kind: "checkbox", fallback: false },
  timeout(type),
];
const DATABASE_FIELDS = {
  postgres: sqlFields("postgres", "postgres"),
  mysql: sqlFields("mysql", "root"),
  redis: [
    databasePort("redis"),
    { key: "database", label: i18nKey("monitoring:check.databaseNumber"), kind: "number", hint: i18nKey("monitoring:check.0To15Empty0") },
    { key: "username", label: i18nKey("monitoring:check.userName"), kind: "text", hint: i18nKey("monitoring:check.emptyTheDefaultUser") },
    databasePassword,
    { key: "key", label: i18nKey("monitoring:check.key"), kind: "text", hint: i18nKey("monitoring:check.mustExistOptional") },
    {
      key: "expected_value",
      label: i18nKey("monitoring:check.expectedValue"),
      kind: "text",
      hint: i18nKey("monitoring:check.theKeySValueMust"),
    },
    { key: "tls", label: i18nKey("monitoring:check.useTlsCertificateVerified"), kind: "checkbox", fallback: false },
    timeout("redis"),
  ],
} satisfies Partial<Record<CheckType, readonly ConfigField[]>>;
/** The certificate rules of the tls and smtp types (shared/domain/monitors/tls-config-fields.ts). */
const TLS_CERT_FIELDS: readonly ConfigField[] = [
  {
    key: "server_name",
    label: i18nKey("monitoring:check.serverNameSni"),
    kind: "text",
    hint: i18nKey("monitoring:check.theNameTheCertificateMust"),
  },
  { key: "verify_chain", label: i18nKey("monitoring:check.verifyTheCertificateChain"), kind: "checkbox", fallback: true },
  { key: "verify_hostname", label: i18nKey("monitoring:check.verifyTheHostName"), kind: "checkbox", fallback: true },
  {
    key: "expiry_days",
    label: i18nKey("monitoring:check.certificateExpiryWarningDays"),
    kind: "number",
    hint: i18nKey("monitoring:check.downWhenItExpiresWithin"),
  },
  {
    key: "ca_pem",
    label: i18nKey("monitoring:check.trustedCaPem"),
    kind: "multiline",
    hint: i18nKey("monitoring:check.trustTheseCasInsteadOf"),
  },
];

/** Basic or bearer authentication (http, websocket: shared/domain/monitors/http-auth-fields.ts). */
const HTTP_AUTH_FIELDS: readonly ConfigField[] = [
  { key: "auth_type", label: i18nKey("monitoring:check.authentication"), kind: "select", options: HTTP_AUTH_TYPES },
  {
    key: "username",
    label: i18nKey("monitoring:check.userName"),
    kind: "text",
    when: { key: "auth_type", values: ["basic"], unset: "none" },
  },
  {
    key: "password",
    label: i18nKey("monitoring:check.password"),
    kind: "secret",
    when: { key: "auth_type", values: ["basic"], unset: "none" },
    hint: i18nKey("monitoring:check.storedSealedKeepsTheStored"),
  },
  {
    key: "token",
    label: i18nKey("monitoring:check.bearerToken"),
    kind: "secret",
    when: { key: "auth_type", values: ["bearer"], unset: "none" },
    hint: i18nKey("monitoring:check.storedSealedKeepsTheStored"),
  },
];

export const CONFIG_FIELDS: Record<CheckType, readonly ConfigField[]> = {
  http: [
    { key: "url", label: i18nKey("monitoring:check.url"), kind: "text", hint: i18nKey("monitoring:check.httpOrHttpsEmptyHttp") },
    { key: "method", label: i18nKey("monitoring:check.method"), kind: "select", options: HTTP_METHODS },
    {
      key: "accepted_statuses",
      label: i18nKey("monitoring:check.expectedStatusCodes"),
      kind: "list",
      hint: i18nKey("monitoring:check.commaSeparatedStatusesOrRanges"),
    },
    { key: "keyword", label: i18nKey("monitoring:check.keyword"), kind: "text", hint: i18nKey("monitoring:check.theBodyMustContainIt") },
    { key: "keyword_invert", label: i18nKey("monitoring:check.upWhenTheKeywordIs"), kind: "checkbox", fallback: false },
    {
      key: "headers",
      label: i18nKey("monitoring:check.requestHeaders"),
      kind: "headers",
      hint: i18nKey("monitoring:check.onePerLineNameValue"),
    },
    { key: "body", label: i18nKey("monitoring:check.requestBody"), kind: "text" },
    ...HTTP_AUTH_FIELDS,
    { key: "follow_redirects", label: i18nKey("monitoring:check.followRedirects"), kind: "checkbox", fallback: true },
    {
      key: "max_redirects",
      label: i18nKey("monitoring:check.atMostThisManyRedirects"),
      kind: "number",
      hint: i18nKey("monitoring:check.empty10"),
      when: { key: "follow_redirects", values: ["true"], unset: "true" },
    },
    { key: "verify_tls", label: i18nKey("monitoring:check.verifyTheTlsCertificate"), kind: "checkbox", fallback: true },
    {
      key: "cert_expiry_days",
      label: i18nKey("monitoring:check.certificateExpiryWarningDays"),
      kind: "number",
      hint: i18nKey("monitoring:check.downWhenTheCertificateExpires"),
    },
    timeout("http"),
  ],
  tcp: [{ key: "port", label: i18nKey("monitoring:check.port"), kind: "number" }, timeout("tcp")],
  icmp: [timeout("icmp")],
  dns: [
    { key: "record_type", label: i18nKey("monitoring:check.recordType"), kind: "select", options: DNS_RECORD_TYPES },
    {
      key: "resolver",
      label: i18nKey("monitoring:check.resolver"),
      kind: "text",
      hint: i18nKey("monitoring:check.emptyTheSystemSResolver"),
    },
    {
      key: "expected_values",
      label: i18nKey("monitoring:check.expectedValues"),
      kind: "list",
      hint: i18nKey("monitoring:check.commaSeparatedEmptyAnyAnswer"),
    },
    timeout("dns"),
  ],
  ...DATABASE_FIELDS,
  ssh: [
    { key: "port", label: i18nKey("monitoring:check.port"), kind: "number", hint: i18nKey("monitoring:check.empty22") },
    {
      key: "expected_banner",
      label: i18nKey("monitoring:check.expectedBannerText"),
      kind: "text",
      hint: i18nKey("monitoring:check.theSsh20Line"),
    },
    timeout("ssh"),
  ],
  tls: [
    { key: "port", label: i18nKey("monitoring:check.port"), kind: "number", hint: i18nKey("monitoring:check.empty443") },
    ...TLS_CERT_FIELDS,
    timeout("tls"),
  ],
  smtp: [
    { key: "port", label: i18nKey("monitoring:check.port"), kind: "number", hint: i18nKey("monitoring:check.empty25") },
    { key: "ehlo_name", label: i18nKey("monitoring:check.ehloName"), kind: "text", hint: i18nKey("monitoring:check.emptyLocalhost") },
    { key: "starttls", label: i18nKey("monitoring:check.requireStarttls"), kind: "checkbox", fallback: false },
    ...TLS_CERT_FIELDS.map((f) => ({ ...f, when: { key: "starttls", values: ["true"], unset: "false" } })),
    timeout("smtp"),
  ],
  grpc: [
    { key: "port", label: i18nKey("monitoring:check.port"), kind: "number", hint: i18nKey("monitoring:check.required") },
    {
      key: "service",
      label: i18nKey("monitoring:check.serviceName"),
      kind: "text",
      hint: i18nKey("monitoring:check.asTheHealthServiceKnows"),
    },
    { key: "tls", label: i18nKey("monitoring:check.useTls"), kind: "checkbox", fallback: false },
    ...TLS_CERT_FIELDS.map((f) => ({ ...f, when: { key: "tls", values: ["true"], unset: "false" } })),
    timeout("grpc"),
  ],
  websocket: [
    { key: "url", label: i18nKey("monitoring:check.url"), kind: "text", hint: i18nKey("monitoring:check.wsOrWssEmptyWs") },
    {
      key: "headers",
      label: i18nKey("monitoring:check.requestHeaders"),
      kind: "headers",
      hint: i18nKey("monitoring:check.onePerLineNameValue"),
    },
    ...HTTP_AUTH_FIELDS,
    {
      key: "send",
      label: i18nKey("monitoring:check.messageToSend"),
      kind: "text",
      hint: i18nKey("monitoring:check.sentAsTextOnceUpgraded"),
    },
    {
      key: "expected_reply",
      label: i18nKey("monitoring:check.expectedReply"),
      kind: "text",
      hint: i18nKey("monitoring:check.aMessageMustContainThis"),
    },
    { key: "verify_tls", label: i18nKey("monitoring:check.verifyTheTlsCertificate"), kind: "checkbox", fallback: true },
    timeout("websocket"),
  ],
  udp: [
    { key: "port", label: i18nKey("monitoring:check.port"), kind: "number", hint: i18nKey("monitoring:check.required") },
    {
      key: "payload",
      label: i18nKey("monitoring:check.payloadText"),
      kind: "text",
      hint: i18nKey("monitoring:check.emptyAnEmptyDatagram"),
    },
    { key: "payload_hex", label: i18nKey("monitoring:check.payloadHex"), kind: "text", hint: i18nKey("monitoring:check.insteadOfTextEG") },
    {
      key: "expected_reply",
      label: i18nKey("monitoring:check.expectedReply"),
      kind: "text",
      hint: i18nKey("monitoring:check.theReplyMustContainThis"),
    },
    timeout("udp"),
  ],
  // snmp, mqtt, docker (issue 29 item 2): the community, the v3 keys, the broker password and the client key
  // are stored sealed. snmp's v3 fields show with version v3, the keys as its security level needs them.
  snmp: [
    { key: "oid", label: i18nKey("monitoring:check.oid"), kind: "text", hint: i18nKey("monitoring:check.numericEG13") },
    { key: "version", label: i18nKey("monitoring:check.snmpVersion"), kind: "select", options: SNMP_VERSIONS },
    {
      key: "community",
      label: i18nKey("monitoring:check.community"),
      kind: "secret",
      hint: i18nKey("monitoring:check.storedSealedEmptyPublic"),
      when: { ...SNMP_V3, values: ["v1", "v2c"] },
    },
    {
      key: "username",
      label: i18nKey("monitoring:check.snmpv3UserName"),
      kind: "text",
      hint: i18nKey("monitoring:check.required"),
      when: SNMP_V3,
    },
    {
      key: "security_level",
      label: i18nKey("monitoring:check.securityLevel"),
      kind: "select",
      options: SNMP_SECURITY_LEVELS,
      hint: i18nKey("monitoring:check.defaultNoauthnopriv"),
      when: SNMP_V3,
    },
    {
      key: "auth_protocol",
      label: i18nKey("monitoring:check.authProtocol"),
      kind: "select",
      options: SNMP_AUTH_PROTOCOLS,
      hint: i18nKey("monitoring:check.defaultSha"),
      when: SNMP_AUTH,
    },
    {
      key: "auth_key",
      label: i18nKey("monitoring:check.authKey"),
      kind: "secret",
      hint: i18nKey("monitoring:check.usmKey"),
      hintValues: { min: SNMP_KEY_MIN },
      when: SNMP_AUTH,
    },
    {
      key: "priv_protocol",
      label: i18nKey("monitoring:check.privacyProtocol"),
      kind: "select",
      options: SNMP_PRIV_PROTOCOLS,
      hint: i18nKey("monitoring:check.defaultAes128"),
      when: SNMP_PRIV,
    },
    {
      key: "priv_key",
      label: i18nKey("monitoring:check.privacyKey"),
      kind: "secret",
      hint: i18nKey("monitoring:check.usmKey"),
      hintValues: { min: SNMP_KEY_MIN },
      when: SNMP_PRIV,
    },
    { key: "port", label: i18nKey("monitoring:check.port"), kind: "number", hint: i18nKey("monitoring:check.empty161") },
    {
      key: "operator",
      label: i18nKey("monitoring:check.comparison"),
      kind: "select",
      options: SNMP_OPERATORS,
      hint: i18nKey("monitoring:check.defaultAnyValueIsUp"),
    },
    {
      key: "expected_value",
      label: i18nKey("monitoring:check.comparedWith"),
      kind: "text",
      hint: i18nKey("monitoring:check.aNumberForWithNo"),
    },
    timeout("snmp"),
  ],
  mqtt: [
    { key: "tls", label: i18nKey("monitoring:check.useTlsCertificateVerified"), kind: "checkbox", fallback: false },
    { key: "port", label: i18nKey("monitoring:check.port"), kind: "number", hint: i18nKey("monitoring:check.empty1883Or8883With") },
    {
      key: "ca_pem",
      label: i18nKey("monitoring:check.trustedCaPem"),
      kind: "multiline",
      when: { key: "tls", values: ["true"], unset: "false" },
    },
    { key: "username", label: i18nKey("monitoring:check.userName"), kind: "text", hint: i18nKey("monitoring:check.emptyAnonymous") },
    databasePassword,
    {
      key: "client_id",
      label: i18nKey("monitoring:check.clientId"),
      kind: "text",
      hint: i18nKey("monitoring:check.emptyMonitorCheckRandom"),
    },
    {
      key: "protocol_version",
      label: i18nKey("monitoring:check.mqttProtocolVersion"),
      kind: "select",
      options: MQTT_PROTOCOL_VERSIONS.map(String),
      numeric: true,
      hint: i18nKey("monitoring:check.4Mqtt311"),
    },
    { key: "topic", label: i18nKey("monitoring:check.topic"), kind: "text", hint: i18nKey("monitoring:check.subscribeAndWaitForA") },
    {
      key: "expected_payload",
      label: i18nKey("monitoring:check.expectedPayloadText"),
      kind: "text",
      hint: i18nKey("monitoring:check.theFirstMessageMustContain"),
    },
    timeout("mqtt"),
  ],
  docker: [
    { key: "container", label: i18nKey("monitoring:check.container"), kind: "text", hint: i18nKey("monitoring:check.itsNameOrIdRequired") },
    { key: "tls", label: i18nKey("monitoring:check.engineApiOverTls"), kind: "checkbox", fallback: true },
    {
      key: "port",
      label: i18nKey("monitoring:check.engineApiPort"),
      kind: "number",
      hint: i18nKey("monitoring:check.empty2376WithTls2375"),
    },
    {
      key: "ca_pem",
      label: i18nKey("monitoring:check.engineCaPem"),
      kind: "multiline",
      when: { key: "tls", values: ["true"], unset: "true" },
    },
    {
      key: "client_cert",
      label: i18nKey("monitoring:check.clientCertificatePem"),
      kind: "multiline",
      when: { key: "tls", values: ["true"], unset: "true" },
    },
    {
      key: "client_key",
      label: i18nKey("monitoring:check.clientKeyPem"),
      kind: "secret",
      hint: i18nKey("monitoring:check.storedSealedKeepsTheStored2"),
      when: { key: "tls", values: ["true"], unset: "true" },
    },
    { key: "require_healthy", label: i18nKey("monitoring:check.requireHealthyWhenItHas"), kind: "checkbox", fallback: true },
    {
      key: "max_restarts",
      label: i18nKey("monitoring:check.atMostThisManyRestarts"),
      kind: "number",
      hint: i18nKey("monitoring:check.emptyAnyNumber"),
    },
    timeout("docker"),
  ],
  // A group's state comes from its members (docs/adr/0440); each member names its group on its own form.
  group: [
    {
      key: "mode",
      label: i18nKey("monitoring:check.upWhen"),
      kind: "select",
      options: GROUP_MODES,
      hint: i18nKey("monitoring:check.allEveryMemberUpAny"),
    },
    {
      key: "min_up",
      label: i18nKey("monitoring:check.atLeastThisManyMembers"),
      kind: "number",
      when: { key: "mode", values: ["at_least"], unset: "all" },
    },
  ],
  // Heartbeat monitors (docs/monitors.md, Push monitors): what the pushes must keep up with.
  push: [
    {
      key: "expect",
      label: i18nKey("monitoring:check.expectAPush"),
      kind: "select",
      options: PUSH_EXPECTS,
      hint: i18nKey("monitoring:check.intervalEveryIntervalCronOn"),
    },
    {
      key: "grace_secs",
      label: i18nKey("monitoring:check.graceSeconds"),
      kind: "number",
      hint: i18nKey("monitoring:check.grace"),
      hintValues: { value: PUSH_DEFAULTS.grace_secs },
      when: { key: "expect", values: ["interval"], unset: "interval" },
    },
    {
      key: "cron",
      label: i18nKey("monitoring:check.scheduleCron"),
      kind: "text",
      hint: i18nKey("monitoring:check.whenTheJobRunsE"),
      when: { key: "expect", values: ["cron"], unset: "interval" },
    },
    {
      key: "tolerance_secs",
      label: i18nKey("monitoring:check.toleranceSeconds"),
      kind: "number",
      hint: i18nKey("monitoring:check.tolerance"),
      hintValues: { value: PUSH_DEFAULTS.tolerance_secs },
      when: { key: "expect", values: ["cron"], unset: "interval" },
    },
    {
      key: "timezone",
      label: i18nKey("monitoring:check.timeZone"),
      kind: "text",
      hint: i18nKey("monitoring:check.theScheduleSIanaTime"),
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
