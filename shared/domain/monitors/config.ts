// Per-check-type monitor config (spec/catalogue.tsv, group monitors; the registry in check-types.ts; issue 12 item 1).
// Every key is optional and an unknown key is refused (422): the config is stored with only the keys the
// caller sent, and the runner applies the defaults of the type's registry entry (check-types.ts) at run
// time. Secrets (each type's `secretKeys` in its registry entry, http's credential-bearing headers) are
// validated here and taken apart by shared/verbs/monitors/secrets.ts.
import * as v from "valibot";
import { CHECK_TYPE_REGISTRY, type CheckType, secretKeysOf } from "./check-types.ts";
import type { ConfigIssue } from "./config-fields.ts";

export { CHECK_TYPES, DNS_RECORD_TYPES, HTTP_AUTH_TYPES, HTTP_METHODS, type CheckType, secretKeysOf } from "./check-types.ts";

/** Request headers that carry credentials: their values are secrets too. */
export const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "x-api-key", "x-auth-token"]);
export const isSecretHeader = (name: string) => SECRET_HEADERS.has(name.toLowerCase());

/** Read-only flags a client may send back inside config (`password_set`, ...); ignored on write. */
export const readOnlyKeysOf = (checkType: CheckType): string[] => secretKeysOf(checkType).map((k) => `${k}_set`);

export type { ConfigIssue } from "./config-fields.ts";

export type ConfigResult = { ok: true; config: Record<string, unknown> } | { ok: false; issues: ConfigIssue[] };

/**
 * Validates `config` for `checkType`: known keys checked, every unknown key named, read-only flags
 * dropped. The answer holds only the keys given (minus the flags).
 */
export function validateConfig(checkType: CheckType, config: unknown): ConfigResult {
  if (typeof config !== "object" || config === null || Array.isArray(config))
    return { ok: false, issues: [{ path: [], msg: "Must be an object.", type: "object" }] };
  const entries = CHECK_TYPE_REGISTRY[checkType].config;
  const readOnly = readOnlyKeysOf(checkType);
  const given = Object.fromEntries(Object.entries(config).filter(([k]) => !readOnly.includes(k)));
  const issues: ConfigIssue[] = Object.keys(given)
    .filter((k) => !Object.hasOwn(entries, k))
    .map((k) => ({ path: [k], msg: `Unknown field "${k}" for a ${checkType} check.`, type: "unknown_key" }));
  const known = Object.fromEntries(Object.entries(given).filter(([k]) => Object.hasOwn(entries, k)));
  const parsed = v.safeParse(v.object(entries), known);
  if (!parsed.success)
    for (const i of parsed.issues) issues.push({ path: (i.path ?? []).map((p) => p.key as string | number), msg: i.message, type: i.type });
  if (issues.length === 0) issues.push(...(CHECK_TYPE_REGISTRY[checkType].configIssues?.(known) ?? []));
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, config: known };
}

/** The config the runner executes: defaults under the keys given. */
export function effectiveConfig(checkType: CheckType, config: Record<string, unknown>): Record<string, unknown> {
  const entry = CHECK_TYPE_REGISTRY[checkType];
  return { ...entry.defaults, timeout: entry.timeout.fallback, ...config };
}
