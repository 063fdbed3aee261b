// The check-type registry (issue 27 item 1): one entry per check type holds everything the API, the
// sidecar, the reference agent and the console need to know about it: its config rules (valibot), the
// defaults the runner applies to keys not sent, its timeout (default and bound), its whole time budget
// and which runners can execute it. Runtime-neutral (the API validates configs on workerd too); the
// executors, which are Node-only, live in net/checks/<type>.ts. Adding a type: sidecar/README.md.
import * as v from "valibot";
import { DATABASE_CHECK_TYPES } from "./database-check-types.ts";
import { DnsResolver, Headers, HttpUrl, NullableText, oneOf, Port, StatusRange, timeoutField, WholeNumber } from "./config-fields.ts";
import { GRPC_WEBSOCKET_UDP_CHECK_TYPES } from "./grpc-websocket-udp-check-types.ts";
import { HTTP_AUTH_DEFAULTS, HTTP_AUTH_RULES, HTTP_AUTH_SECRET_KEYS } from "./http-auth-fields.ts";
import { GROUP_CONFIG, GROUP_DEFAULTS, groupConfigIssues } from "./group.ts";
import type { ConfigIssue } from "./config-fields.ts";
import { PUSH_CONFIG, PUSH_DEFAULTS, pushConfigIssues } from "./push-expectation.ts";
import { EhloName, TLS_CERT_DEFAULTS, TLS_CERT_RULES } from "./tls-config-fields.ts";
import { SNMP_MQTT_DOCKER_CHECK_TYPES } from "./snmp-mqtt-docker-check-types.ts";

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export { HTTP_AUTH_TYPES } from "./http-auth-fields.ts";
export const DNS_RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "TXT", "NS", "SOA", "PTR", "SRV", "CAA"] as const;

/** Who can run a check: the sidecar itself, or the reference agent (agent/) when the monitor names one. */
export type CheckRunner = "sidecar" | "agent";

/**
 * Where a monitor's results come from: `probe`, an executor (net/checks/<type>.ts) checking the monitor's
 * host; `push`, the pushes its owner sends to its push URL; `derived`, the monitors it is made of (a group).
 * Only probe types have a host, an executor and runners (docs/adr/0434).
 */
export type CheckSource = "probe" | "push" | "derived";

export interface CheckTypeEntry {
  /** The config's keys and their rules; every key optional (the runner applies `defaults`). */
  config: v.ObjectEntries;
  /** What the runner uses for a key the caller did not send. */
  defaults: Readonly<Record<string, unknown>>;
  /** The `timeout` key in seconds: its default and upper bound. */
  timeout: { fallback: number; max: number };
  /** The whole run's budget (ms) for a timeout of `timeoutMs`, when the check needs more than its timeout. */
  budgetMs?: (config: Record<string, unknown>, timeoutMs: number) => number;
  runners: readonly CheckRunner[];
  /** The config keys whose values are secrets: sealed by the vault, answered masked with `<key>_set`. */
  secretKeys?: readonly string[];
  /** Where results come from (default `probe`); a push or derived type has no host and `runners: []`. */
  source?: CheckSource;
  /** Rules across keys, run once every key passed its own (the config as sent, without defaults). */
  configIssues?: (config: Record<string, unknown>) => ConfigIssue[];
}

/** Seconds between two checks of a monitor when the caller sends no interval_secs. */
export const DEFAULT_INTERVAL_SECS = 60;

const PACKET_COUNT = { fallback: 5, min: 1, max: 20 };

// The key order is the order of CHECK_TYPES (and of the OpenAPI enum).
const REGISTRY = {
  icmp: {
    config: { packet_count: v.optional(WholeNumber(PACKET_COUNT.min, PACKET_COUNT.max)), timeout: timeoutField(30) },
    defaults: { packet_count: PACKET_COUNT.fallback },
    timeout: { fallback: 1.5, max: 30 },
    // ping waits 0.2 s between its packets, and a second for the process itself.
    budgetMs: (config, timeoutMs) => {
      const count =
        typeof config.packet_count === "number"
          ? Math.min(PACKET_COUNT.max, Math.max(PACKET_COUNT.min, config.packet_count))
          : PACKET_COUNT.fallback;
      return timeoutMs + Math.ceil(0.2 * (count - 1) * 1000) + 1000;
    },
    // The reference agent gets no raw sockets (agent/probes/readiness.ts); the Go agent can.
    runners: ["sidecar"],
  },
  tcp: {
    config: {
      port: v.optional(v.nullable(Port)),
      ports: v.optional(v.nullable(v.pipe(v.array(Port), v.minLength(1, "Give at least one port."), v.maxLength(32, "At most 32 ports.")))),
      timeout: timeoutField(30),
    },
    defaults: { port: null, ports: null },
    timeout: { fallback: 1.0, max: 30 },
    runners: ["sidecar", "agent"],
  },
  http: {
    config: {
      url: v.optional(v.nullable(HttpUrl)),
      method: v.optional(oneOf(HTTP_METHODS)),
      headers: v.optional(Headers),
      body: NullableText(65_536),
      timeout: timeoutField(120),
      ...HTTP_AUTH_RULES,
      accepted_statuses: v.optional(v.pipe(v.array(StatusRange), v.minLength(1, "Give at least one status or range."), v.maxLength(20))),
      keyword: NullableText(1000),
      keyword_invert: v.optional(v.boolean()),
      json_path: NullableText(500),
      expected_value: NullableText(1000),
      verify_tls: v.optional(v.boolean()),
      ignore_tls: v.optional(v.boolean()),
      follow_redirects: v.optional(v.boolean()),
      max_redirects: v.optional(WholeNumber(0, 20)),
      cert_expiry_days: v.optional(
        v.nullable(v.pipe(v.number(), v.integer("Must be a whole number of days."), v.minValue(1), v.maxValue(365))),
      ),
    },
    defaults: {
      url: null,
      method: "GET",
      headers: {},
      body: null,
      ...HTTP_AUTH_DEFAULTS,
      accepted_statuses: ["200-299"],
      keyword: null,
      keyword_invert: false,
      json_path: null,
      expected_value: null,
      verify_tls: true,
      ignore_tls: false,
      follow_redirects: true,
      max_redirects: 10,
      cert_expiry_days: null,
    },
    timeout: { fallback: 10.0, max: 120 },
    runners: ["sidecar", "agent"],
    secretKeys: HTTP_AUTH_SECRET_KEYS,
  },
  dns: {
    config: {
      record_type: v.optional(oneOf(DNS_RECORD_TYPES)),
      resolver: v.optional(v.nullable(DnsResolver)),
      port: v.optional(Port),
      expected_values: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(1000))), v.maxLength(50))),
      timeout: timeoutField(30),
    },
    defaults: { record_type: "A", resolver: null, port: 53, expected_values: [] },
    timeout: { fallback: 5.0, max: 30 },
    runners: ["sidecar", "agent"],
  },
  // Database checks (issue 29 item 2): net/checks/postgres.ts, mysql.ts, redis.ts.
  ...DATABASE_CHECK_TYPES,
  // ssh, tls, smtp (issue 29 item 2): a server's SSH banner, a TLS certificate, an SMTP greeting (+ STARTTLS).
  ssh: {
    config: { port: v.optional(Port), expected_banner: NullableText(255), timeout: timeoutField(60) },
    defaults: { port: 22, expected_banner: null },
    timeout: { fallback: 5.0, max: 60 },
    runners: ["sidecar", "agent"],
  },
  tls: {
    config: { port: v.optional(Port), ...TLS_CERT_RULES, timeout: timeoutField(60) },
    defaults: { port: 443, ...TLS_CERT_DEFAULTS },
    timeout: { fallback: 10.0, max: 60 },
    runners: ["sidecar", "agent"],
  },
  smtp: {
    config: {
      port: v.optional(Port),
      ehlo_name: v.optional(v.nullable(EhloName)),
      starttls: v.optional(v.boolean()),
      ...TLS_CERT_RULES,
      timeout: timeoutField(60),
    },
    defaults: { port: 25, ehlo_name: null, starttls: false, ...TLS_CERT_DEFAULTS },
    timeout: { fallback: 10.0, max: 60 },
    runners: ["sidecar", "agent"],
  },
  // grpc, websocket, udp (issue 29 item 2): grpc-websocket-udp-check-types.ts.
  ...GRPC_WEBSOCKET_UDP_CHECK_TYPES,
  // snmp, mqtt, docker (issue 29 item 2): an OID's value, a broker's CONNACK (+ a payload), a container's state.
  ...SNMP_MQTT_DOCKER_CHECK_TYPES,
  // Group monitors (issue 29 item 3, docs/adr/0440): up, down or pending by their members' states
  // (group.ts), evaluated when a member's result is recorded (shared/verbs/monitors/groups/).
  group: {
    config: GROUP_CONFIG,
    defaults: GROUP_DEFAULTS,
    // Nothing is probed; the registry's shape asks for a timeout all the same.
    timeout: { fallback: 0, max: 0 },
    runners: [],
    source: "derived",
    configIssues: groupConfigIssues,
  },
  // Heartbeat monitors (issue 29 item 1, docs/adr/0439): results are the pushes to the monitor's push URL
  // (shared/verbs/monitors/push/), and a sweep marks one down when its expectation passes unanswered.
  push: {
    config: PUSH_CONFIG,
    defaults: PUSH_DEFAULTS,
    // Nothing is probed; the registry's shape asks for a timeout all the same.
    timeout: { fallback: 0, max: 0 },
    runners: [],
    source: "push",
    configIssues: pushConfigIssues,
  },
} as const satisfies Record<string, CheckTypeEntry>;

export type CheckType = keyof typeof REGISTRY;
export const CHECK_TYPE_REGISTRY: Readonly<Record<CheckType, CheckTypeEntry>> = REGISTRY;
export const CHECK_TYPES = Object.keys(REGISTRY) as readonly CheckType[] as readonly [CheckType, ...CheckType[]];

/** The config keys of `checkType` whose values are secrets (none for most types). */
export const secretKeysOf = (checkType: CheckType): readonly string[] => CHECK_TYPE_REGISTRY[checkType].secretKeys ?? [];

export const isCheckType = (value: unknown): value is CheckType => typeof value === "string" && Object.hasOwn(REGISTRY, value);

/** The types an executor runs against a host; the others have no executor and no host. */
export type ProbeCheckType = {
  [K in CheckType]: (typeof REGISTRY)[K] extends { source: "push" | "derived" } ? never : K;
}[CheckType];

export const sourceOf = (checkType: CheckType): CheckSource => CHECK_TYPE_REGISTRY[checkType].source ?? "probe";

export const isProbeCheckType = (value: unknown): value is ProbeCheckType => isCheckType(value) && sourceOf(value) === "probe";

export const PROBE_CHECK_TYPES: readonly ProbeCheckType[] = CHECK_TYPES.filter(isProbeCheckType);

/** The check's timeout (ms) and its whole budget (ms), from its (effective) config. */
export function checkBudget(checkType: CheckType, config: Record<string, unknown>): { timeoutMs: number; budgetMs: number } {
  const entry = CHECK_TYPE_REGISTRY[checkType];
  const configured = config.timeout;
  const seconds = typeof configured === "number" && configured > 0 ? Math.min(configured, entry.timeout.max) : entry.timeout.fallback;
  const timeoutMs = Math.round(seconds * 1000);
  return { timeoutMs, budgetMs: entry.budgetMs?.(config, timeoutMs) ?? timeoutMs };
}
