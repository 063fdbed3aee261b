// The SNMPv3 (USM) keys of the snmp check type (snmp-mqtt-docker-check-types.ts; docs/adr/0476): a user
// name, a security level, and for authNoPriv/authPriv an auth protocol and key, for authPriv a privacy
// protocol and key. The keys are secrets (sealed, answered masked). The protocols are those net-snmp and
// Net-SNMP's agent both speak; MD5 and DES are left out (broken). The cross-key rules are shared by the
// API (a 422 naming each key) and the executor (an invalid config for a row written before a rule).
// Runtime-neutral, like check-types.ts.
import * as v from "valibot";
import { type ConfigIssue, NullableText, oneOf } from "./config-fields.ts";

export const SNMP_SECURITY_LEVELS = ["noAuthNoPriv", "authNoPriv", "authPriv"] as const;
export const SNMP_AUTH_PROTOCOLS = ["SHA", "SHA-224", "SHA-256", "SHA-384", "SHA-512"] as const;
/** AES-256-B: Blumenthal's key extension (Net-SNMP's AES256); AES-256-R: Reeder's (Cisco's, Net-SNMP's AES256C). */
export const SNMP_PRIV_PROTOCOLS = ["AES", "AES-256-B", "AES-256-R"] as const;
export type SnmpSecurityLevel = (typeof SNMP_SECURITY_LEVELS)[number];
export type SnmpAuthProtocol = (typeof SNMP_AUTH_PROTOCOLS)[number];
export type SnmpPrivProtocol = (typeof SNMP_PRIV_PROTOCOLS)[number];

/** USM refuses a password shorter than 8 characters (RFC 3414 11.2); the mask ******** has 8. */
export const SNMP_KEY_MIN = 8;
const UsmKey = v.optional(
  v.nullable(
    v.pipe(
      v.string(),
      v.minLength(SNMP_KEY_MIN, `Must be at least ${SNMP_KEY_MIN} characters (USM refuses shorter keys).`),
      v.maxLength(255, "Must be at most 255 characters."),
    ),
  ),
);

export const SNMP_V3_RULES = {
  username: NullableText(255),
  security_level: v.optional(v.nullable(oneOf(SNMP_SECURITY_LEVELS))),
  auth_protocol: v.optional(v.nullable(oneOf(SNMP_AUTH_PROTOCOLS))),
  auth_key: UsmKey,
  priv_protocol: v.optional(v.nullable(oneOf(SNMP_PRIV_PROTOCOLS))),
  priv_key: UsmKey,
} satisfies v.ObjectEntries;

/** Null: the runner's choice (noAuthNoPriv, SHA, AES) or, for v1/v2c, nothing. */
export const SNMP_V3_DEFAULTS = {
  username: null,
  security_level: null,
  auth_protocol: null,
  auth_key: null,
  priv_protocol: null,
  priv_key: null,
} as const;

export const SNMP_V3_SECRET_KEYS = ["auth_key", "priv_key"] as const;

const V3_ONLY = ["username", "security_level", "auth_protocol", "auth_key", "priv_protocol", "priv_key"] as const;
const AUTH_KEYS = ["auth_protocol", "auth_key"] as const;
const PRIV_KEYS = ["priv_protocol", "priv_key"] as const;

const given = (config: Record<string, unknown>, key: string) => config[key] !== undefined && config[key] !== null;

/**
 * The rules across the snmp keys: v3 needs a user name and the keys its level asks for; a key that the
 * version or the level does not use is refused rather than kept unused (the form drops hidden fields).
 */
export function snmpConfigIssues(config: Record<string, unknown>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const flag = (key: string, msg: string, type = "invalid") => issues.push({ path: [key], msg, type });
  if (config.version !== "v3") {
    for (const key of V3_ONLY) if (given(config, key)) flag(key, "Only with version v3.");
    return issues;
  }
  if (given(config, "community")) flag("community", "Not used with v3: SNMPv3 logs in with a user name.");
  if (!given(config, "username") || config.username === "") flag("username", "Required for SNMPv3.", "missing");
  const level = (config.security_level ?? "noAuthNoPriv") as SnmpSecurityLevel;
  const needs = (keys: readonly string[], wanted: boolean, levels: string) => {
    for (const key of keys) {
      if (!wanted && given(config, key)) flag(key, `Only with security level ${levels}.`);
      if (wanted && key.endsWith("_key") && !given(config, key)) flag(key, `Required for security level ${level}.`, "missing");
    }
  };
  needs(AUTH_KEYS, level !== "noAuthNoPriv", "authNoPriv or authPriv");
  needs(PRIV_KEYS, level === "authPriv", "authPriv");
  return issues;
}

/**
 * The first problem with a config's v3 keys (each key's rule, then the rules across them) as
 * `key: message`, or null: the executor's check of a config stored before a rule existed.
 */
export function snmpV3ConfigProblem(config: Record<string, unknown>): string | null {
  const keys = Object.fromEntries(Object.keys(SNMP_V3_RULES).map((k) => [k, config[k]]));
  const parsed = v.safeParse(v.object(SNMP_V3_RULES), keys);
  const first = parsed.success ? snmpConfigIssues(config)[0] : parsed.issues[0];
  if (!first) return null;
  const path = "msg" in first ? first.path.join(".") : (first.path ?? []).map((p) => String(p.key)).join(".");
  return `${path}: ${"msg" in first ? first.msg : first.message}`;
}

/** An SNMPv3 (USM) user; the keys are secrets: pass them to the session, never to a log. */
export interface SnmpV3User {
  name: string;
  level: SnmpSecurityLevel;
  /** With authNoPriv and authPriv. */
  auth?: { protocol: SnmpAuthProtocol; key: string };
  /** With authPriv. */
  priv?: { protocol: SnmpPrivProtocol; key: string };
}

/**
 * The v3 user of flat v3 keys (a monitor's config, a poll target's settings and keys) that passed
 * snmpV3ConfigProblem; the runner's defaults where a key is null: noAuthNoPriv, SHA, AES.
 */
export function snmpV3UserOf(keys: Record<string, unknown>): SnmpV3User {
  const text = (key: string, fallback: string) => (typeof keys[key] === "string" ? (keys[key] as string) : fallback);
  const level = text("security_level", "noAuthNoPriv") as SnmpSecurityLevel;
  const user: SnmpV3User = { name: text("username", ""), level };
  if (level !== "noAuthNoPriv") user.auth = { protocol: text("auth_protocol", "SHA") as SnmpAuthProtocol, key: text("auth_key", "") };
  if (level === "authPriv") user.priv = { protocol: text("priv_protocol", "AES") as SnmpPrivProtocol, key: text("priv_key", "") };
  return user;
}
