// A poll configuration's SNMPv3 settings after a write (docs/adr/0489): the request's v3 keys over the stored
// ones, judged by the snmp check's own rules (shared/domain/monitors/snmp-v3-fields.ts), so a poll and a
// monitor refuse the same things with the same words. A stored key the new level no longer uses is dropped,
// not refused (only what the request itself sends can be wrong); v1/v2c keep no v3 settings at all.
import type { TelemetryUsm } from "../../db/schema/index.ts";
import { snmpConfigIssues, SNMP_V3_DEFAULTS } from "../../domain/monitors/snmp-v3-fields.ts";
import type { ConfigIssue } from "../../domain/monitors/config-fields.ts";
import type { TelemetryConfigInput } from "../../schemas/telemetry.ts";

export interface UsmKeys {
  auth_key?: string;
  priv_key?: string;
}

export type UsmOutcome = { ok: true; usm: TelemetryUsm | null; keys: UsmKeys | null } | { ok: false; issues: ConfigIssue[] };

const V3_KEYS = Object.keys(SNMP_V3_DEFAULTS) as (keyof typeof SNMP_V3_DEFAULTS)[];
const AUTH = ["auth_protocol", "auth_key"] as const;
const PRIV = ["priv_protocol", "priv_key"] as const;

/** `version` is the configuration's version after the write; `stored` its v3 settings and opened keys before it. */
export function mergeUsm(
  version: string,
  input: TelemetryConfigInput,
  stored: { usm: TelemetryUsm | null; keys: UsmKeys | null },
): UsmOutcome {
  const sent = Object.fromEntries(V3_KEYS.flatMap((k) => (input[k] !== undefined ? [[k, input[k]]] : [])));
  if (version !== "v3") {
    // The rules flag each v3 key the request gives for v1/v2c; nothing v3 is kept.
    const issues = snmpConfigIssues({ version, ...sent });
    return issues.length ? { ok: false, issues } : { ok: true, usm: null, keys: null };
  }
  const before: Record<string, unknown> = { ...(stored.usm ?? {}), ...(stored.keys ?? {}) };
  const level = (input.security_level !== undefined ? input.security_level : before.security_level) ?? "noAuthNoPriv";
  const uses = (key: string) =>
    (AUTH as readonly string[]).includes(key)
      ? level !== "noAuthNoPriv"
      : (PRIV as readonly string[]).includes(key)
        ? level === "authPriv"
        : true;
  const merged: Record<string, unknown> = { version: "v3", community: input.community };
  for (const k of V3_KEYS) merged[k] = k in sent ? sent[k] : uses(k) ? (before[k] ?? null) : null;
  merged.security_level = level;
  const issues = snmpConfigIssues(merged);
  if (issues.length) return { ok: false, issues };
  const text = (k: string) => (typeof merged[k] === "string" ? (merged[k] as string) : null);
  const keys: UsmKeys = {
    ...(text("auth_key") ? { auth_key: text("auth_key")! } : {}),
    ...(text("priv_key") ? { priv_key: text("priv_key")! } : {}),
  };
  return {
    ok: true,
    usm: {
      username: text("username") ?? "",
      security_level: level as string,
      auth_protocol: text("auth_protocol"),
      priv_protocol: text("priv_protocol"),
    },
    keys: Object.keys(keys).length ? keys : null,
  };
}
