// Per-check-type monitor config (reference-contracts.md 1 "Per-check-type config", issue 12 item 1).
// Every key is optional and an unknown key is refused (422): the config is stored with only the keys the
// caller sent, and the runner applies the defaults below at run time. Secrets (http `password`, `token`
// and credential-bearing headers) are validated here and taken apart by shared/services/monitors/secrets.ts.
import * as v from "valibot";

export const CHECK_TYPES = ["icmp", "tcp", "http", "dns"] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export const HTTP_AUTH_TYPES = ["none", "basic", "bearer"] as const;
export const DNS_RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "TXT", "NS", "SOA", "PTR", "SRV", "CAA"] as const;

/** What the runner uses for a key the caller did not send. */
export const CONFIG_DEFAULTS: Readonly<Record<CheckType, Readonly<Record<string, unknown>>>> = {
  icmp: { packet_count: 5, timeout: 1.5 },
  tcp: { port: null, ports: null, timeout: 1.0 },
  http: {
    url: null, method: "GET", headers: {}, body: null, timeout: 10.0, auth_type: "none", username: null, password: null, token: null,
    accepted_statuses: ["200-299"], keyword: null, keyword_invert: false, json_path: null, expected_value: null, verify_tls: true,
    ignore_tls: false, follow_redirects: true, max_redirects: 10, cert_expiry_days: null,
  },
  dns: { record_type: "A", resolver: null, port: 53, expected_values: [], timeout: 5.0 },
};

/** The http config keys whose values are secrets (sealed by the vault, answered masked). */
export const SECRET_KEYS = ["password", "token"] as const;
/** Request headers that carry credentials: their values are secrets too. */
export const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "x-api-key", "x-auth-token"]);
export const isSecretHeader = (name: string) => SECRET_HEADERS.has(name.toLowerCase());

/** Read-only flags a client may send back inside config (`password_set`, ...); ignored on write. */
export const CONFIG_READ_ONLY = SECRET_KEYS.map((k) => `${k}_set`);

const timeout = (max: number) => v.optional(v.pipe(v.number("Must be a number of seconds."), v.gtValue(0, "Must be above 0."), v.maxValue(max, `Must be at most ${max}.`)));
const Port = v.pipe(v.number(), v.integer("Must be a whole number."), v.minValue(1, "Must be between 1 and 65535."), v.maxValue(65535, "Must be between 1 and 65535."));
const NullableText = (max: number) => v.optional(v.nullable(v.pipe(v.string(), v.maxLength(max, `Must be at most ${max} characters.`))));
const oneOf = <const T extends readonly string[]>(values: T) => v.picklist(values, `Must be one of: ${values.join(", ")}.`);

/** "200", "200-299": three-digit statuses 100..599, a range low to high. */
const STATUS_RANGE = /^([1-5]\d\d)(?:-([1-5]\d\d))?$/;
const StatusRange = v.pipe(
  v.string(),
  v.check((s) => {
    const m = STATUS_RANGE.exec(s);
    return m !== null && (m[2] === undefined || Number(m[1]) <= Number(m[2]));
  }, 'Must be a status such as "200" or a range such as "200-299".'),
);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const Headers = v.pipe(
  v.record(v.pipe(v.string(), v.regex(HEADER_NAME, "Must be an HTTP header name.")), v.pipe(v.string("Must be text."), v.maxLength(4000), v.regex(/^[^\r\n]*$/, "Must be one line."))),
  v.check((h) => Object.keys(h).length <= 50, "At most 50 headers."),
);
const HttpUrl = v.pipe(
  v.string(),
  v.maxLength(2000),
  v.check((s) => {
    try {
      const u = new URL(s);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, "Must be an http(s) URL."),
);

const icmp = { packet_count: v.optional(v.pipe(v.number(), v.integer("Must be a whole number."), v.minValue(1), v.maxValue(20))), timeout: timeout(30) };
const tcp = {
  port: v.optional(v.nullable(Port)),
  ports: v.optional(v.nullable(v.pipe(v.array(Port), v.minLength(1, "Give at least one port."), v.maxLength(32, "At most 32 ports.")))),
  timeout: timeout(30),
};
const http = {
  url: v.optional(v.nullable(HttpUrl)),
  method: v.optional(oneOf(HTTP_METHODS)),
  headers: v.optional(Headers),
  body: NullableText(65_536),
  timeout: timeout(120),
  auth_type: v.optional(oneOf(HTTP_AUTH_TYPES)),
  username: NullableText(200),
  password: NullableText(1000),
  token: NullableText(4000),
  accepted_statuses: v.optional(v.pipe(v.array(StatusRange), v.minLength(1, "Give at least one status or range."), v.maxLength(20))),
  keyword: NullableText(1000),
  keyword_invert: v.optional(v.boolean()),
  json_path: NullableText(500),
  expected_value: NullableText(1000),
  verify_tls: v.optional(v.boolean()),
  ignore_tls: v.optional(v.boolean()),
  follow_redirects: v.optional(v.boolean()),
  max_redirects: v.optional(v.pipe(v.number(), v.integer("Must be a whole number."), v.minValue(0), v.maxValue(20))),
  cert_expiry_days: v.optional(v.nullable(v.pipe(v.number(), v.integer("Must be a whole number of days."), v.minValue(1), v.maxValue(365)))),
};
const dns = {
  record_type: v.optional(oneOf(DNS_RECORD_TYPES)),
  resolver: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(255), v.regex(/^[0-9A-Za-z.:_%-]+$/, "Must be a resolver address or host name.")))),
  port: v.optional(Port),
  expected_values: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(1000))), v.maxLength(50))),
  timeout: timeout(30),
};

const ENTRIES: Record<CheckType, v.ObjectEntries> = { icmp, tcp, http, dns };

export interface ConfigIssue {
  /** Path inside the config (`["headers", "X-A"]`). */
  path: (string | number)[];
  msg: string;
  type: string;
}

export type ConfigResult = { ok: true; config: Record<string, unknown> } | { ok: false; issues: ConfigIssue[] };

/**
 * Validates `config` for `checkType`: known keys checked, every unknown key named, read-only flags
 * dropped. The answer holds only the keys given (minus the flags).
 */
export function validateConfig(checkType: CheckType, config: unknown): ConfigResult {
  if (typeof config !== "object" || config === null || Array.isArray(config)) return { ok: false, issues: [{ path: [], msg: "Must be an object.", type: "object" }] };
  const entries = ENTRIES[checkType];
  const given = Object.fromEntries(Object.entries(config).filter(([k]) => !CONFIG_READ_ONLY.includes(k) || checkType !== "http"));
  const issues: ConfigIssue[] = Object.keys(given)
    .filter((k) => !Object.hasOwn(entries, k))
    .map((k) => ({ path: [k], msg: `Unknown field "${k}" for a ${checkType} check.`, type: "unknown_key" }));
  const known = Object.fromEntries(Object.entries(given).filter(([k]) => Object.hasOwn(entries, k)));
  const parsed = v.safeParse(v.object(entries), known);
  if (!parsed.success) for (const i of parsed.issues) issues.push({ path: (i.path ?? []).map((p) => p.key as string | number), msg: i.message, type: i.type });
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, config: known };
}

/** The config the runner executes: defaults under the keys given. */
export function effectiveConfig(checkType: CheckType, config: Record<string, unknown>): Record<string, unknown> {
  return { ...CONFIG_DEFAULTS[checkType], ...config };
}
