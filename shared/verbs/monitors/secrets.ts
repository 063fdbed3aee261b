// The secrets of a monitor's config: its type's `secretKeys` (registry, check-types.ts: http's `password`
// and `token`, the database checks' `password`) and the values of http's credential headers
// (Authorization, Cookie, ...). The stored `config` keeps the mask in their place (so it still holds only
// the keys sent, and reads need no vault); the values go sealed into `monitors.secret_config`
// (MONITOR_SECRET_CONFIG, bound to the row). A read answers the mask plus `<key>_set`; sending the mask
// back keeps the stored value; null clears it. The runner gets the clear config from runtimeConfig().
import type { CheckType, ConfigIssue } from "../../domain/monitors/config.ts";
import { CHECK_TYPE_REGISTRY, isCheckType } from "../../domain/monitors/check-types.ts";
import { isSecretHeader, secretKeysOf } from "../../domain/monitors/config.ts";
import type { Vault } from "../../vault/vault.ts";
import { MONITOR_SECRET_CONFIG, openSecret, sealSecret } from "../vault/secret-columns.ts";

export const MASK = "********";

/** The secret keys' values by key (`password`, `token`), and http's credential headers. */
export interface MonitorSecrets {
  /** Credential header values by the header name as sent. */
  headers?: Record<string, string>;
  [key: string]: string | Record<string, string> | undefined;
}

const isEmpty = (s: MonitorSecrets) => Object.keys(s).every((k) => k === "headers") && Object.keys(s.headers ?? {}).length === 0;

function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, value] of Object.entries(headers ?? {})) if (k.toLowerCase() === lower) return value;
  return undefined;
}

/** The request headers of a type that has them (http), whose credential values are secrets. */
const headersOf = (checkType: CheckType, config: Record<string, unknown>) =>
  Object.hasOwn(CHECK_TYPE_REGISTRY[checkType].config, "headers") ? (config.headers as Record<string, string> | undefined) : undefined;

/** Whether applying `config` needs the stored secrets opened (it sends a mask back). */
export function sendsMask(checkType: CheckType, config: Record<string, unknown>): boolean {
  if (secretKeysOf(checkType).some((k) => config[k] === MASK)) return true;
  const headers = headersOf(checkType, config);
  return Object.entries(headers ?? {}).some(([name, value]) => isSecretHeader(name) && value === MASK);
}

/** Whether `config` carries a new secret value (one the vault must seal). */
export function sendsSecret(checkType: CheckType, config: Record<string, unknown>): boolean {
  if (secretKeysOf(checkType).some((k) => typeof config[k] === "string" && config[k] !== "" && config[k] !== MASK)) return true;
  const headers = headersOf(checkType, config);
  return Object.entries(headers ?? {}).some(([name, value]) => isSecretHeader(name) && value !== MASK);
}

/**
 * Splits a validated config of `checkType` into what is stored in clear (masks where secrets were) and the secrets,
 * taking the previous value where the caller sent the mask back. A mask with nothing stored behind it is
 * an issue: the caller must send the value.
 */
export function splitSecrets(
  checkType: CheckType,
  config: Record<string, unknown>,
  previous: MonitorSecrets | null,
): { config: Record<string, unknown>; secrets: MonitorSecrets | null; issues: ConfigIssue[] } {
  const clear: Record<string, unknown> = { ...config };
  const secrets: MonitorSecrets = {};
  const issues: ConfigIssue[] = [];
  const missing = (path: (string | number)[], what: string) =>
    issues.push({ path, msg: `The ${what} is masked but none is stored: send its value.`, type: "secret_missing" });
  for (const key of secretKeysOf(checkType)) {
    const value = config[key];
    if (value === undefined || value === null) continue;
    if (value === "") clear[key] = null;
    else if (value === MASK) {
      const kept = previous?.[key];
      if (typeof kept !== "string") missing([key], key);
      else secrets[key] = kept;
    } else {
      secrets[key] = value as string;
      clear[key] = MASK;
    }
  }
  const headers = headersOf(checkType, config);
  if (headers) {
    const clearHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (!isSecretHeader(name)) {
        clearHeaders[name] = value;
        continue;
      }
      const secret = value === MASK ? headerValue(previous?.headers, name) : value;
      if (secret === undefined) missing(["headers", name], `${name} header`);
      else (secrets.headers ??= {})[name] = secret;
      clearHeaders[name] = MASK;
    }
    clear.headers = clearHeaders;
  }
  return { config: clear, secrets: isEmpty(secrets) ? null : secrets, issues };
}

/** The config as answered: stored (masks in place), plus `<key>_set` for each secret key given. */
export function presentConfig(checkType: string, config: Record<string, unknown>): Record<string, unknown> {
  if (!isCheckType(checkType)) return config;
  const flags = Object.fromEntries(
    secretKeysOf(checkType)
      .filter((k) => k in config)
      .map((k) => [`${k}_set`, config[k] === MASK]),
  );
  return { ...config, ...flags };
}

export function sealSecrets(vault: Vault, monitorId: number, secrets: MonitorSecrets): Promise<string> {
  return sealSecret(vault, MONITOR_SECRET_CONFIG, monitorId, JSON.stringify(secrets));
}

export async function openSecrets(vault: Vault, monitorId: number, stored: string | null): Promise<MonitorSecrets | null> {
  if (!stored) return null;
  return JSON.parse(await openSecret(vault, MONITOR_SECRET_CONFIG, monitorId, stored)) as MonitorSecrets;
}

/**
 * The config a check runs with: the stored keys with the secrets opened in place of their masks (no
 * defaults: effectiveConfig() adds those). Pass the result to the executor, never to a log or a frame
 * the UI sees. Throws VaultError when this process's key cannot open them.
 */
export async function runtimeConfig(
  vault: Vault,
  row: { id: number; config: Record<string, unknown>; secret_config: string | null },
): Promise<Record<string, unknown>> {
  const secrets = await openSecrets(vault, row.id, row.secret_config);
  if (!secrets) return row.config;
  const config: Record<string, unknown> = { ...row.config };
  for (const [key, value] of Object.entries(secrets)) if (typeof value === "string") config[key] = value;
  if (secrets.headers) config.headers = { ...(config.headers as Record<string, string> | undefined), ...secrets.headers };
  return config;
}
