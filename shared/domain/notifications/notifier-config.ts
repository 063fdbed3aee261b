// A sink's `provider_config`, checked against its provider's fields (providers/<type>.ts) and split:
// secret keys are kept apart from the plain ones, to be sealed by the vault and only ever answered masked
// with a `<key>_set` flag. Every chat provider takes its base URL from the config, so an installation
// (or a test) can point it anywhere.
import type { ValidationIssue } from "../../errors.ts";
import { checkOutboundHost, checkOutboundUrl, type OutboundPolicy } from "../net/outbound-policy.ts";
import { NOTIFIER_FIELDS, type NotifierType } from "./notifiers/index.ts";
import type { NotifierField } from "./notifiers/notifier.ts";

export interface SplitConfig {
  plain: Record<string, unknown>;
  /** Secrets given in this request (null: not given, or sent back masked: keep the stored one). */
  secrets: Record<string, string>;
}

function checkValue(key: string, f: NotifierField, value: unknown, policy: OutboundPolicy | undefined): string | null {
  switch (f.kind) {
    case "url": {
      if (typeof value !== "string") return "must be a URL string";
      let u: URL;
      try {
        u = new URL(value);
      } catch {
        return "must be an absolute http or https URL";
      }
      if (u.protocol !== "http:" && u.protocol !== "https:") return "must be an http or https URL";
      // The SSRF policy (the message names the host only: a chat webhook's path is its secret).
      const check = policy ? checkOutboundUrl(value, policy) : null;
      return check && !check.ok ? `is refused: ${check.message.replace(/\.$/, "")}` : null;
    }
    case "string":
    case "text":
      return typeof value === "string" && value.trim() !== "" ? null : "must be a non-empty string";
    case "integer": {
      const min = f.min ?? Number.MIN_SAFE_INTEGER;
      const max = f.max ?? Number.MAX_SAFE_INTEGER;
      return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
        ? null
        : `must be an integer${f.min != null || f.max != null ? ` ${min}..${max}` : ""}`;
    }
    case "choice":
      return typeof value === "string" && (f.options ?? []).includes(value) ? null : `must be one of ${(f.options ?? []).join(", ")}`;
    case "host": {
      if (typeof value !== "string" || value.trim() === "") return "must be a non-empty string";
      const reason = policy ? checkOutboundHost(value, policy) : null;
      return reason === null ? null : `is refused: ${reason}`;
    }
    case "port":
      return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65535 ? null : "must be a port number 1..65535";
    case "bool":
      return typeof value === "boolean" ? null : "must be true or false";
    case "priority":
      return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 10 ? null : "must be an integer 1..10";
  }
  return `unknown field kind for ${key}`;
}

/**
 * Validates `config` for `type` and splits it. `stored` is what the sink holds (plain keys and which
 * secrets are set), for an update: required keys may then come from there. Empty, null or masked secrets
 * mean "keep". Issues name `body.provider_config.<key>`. `policy`: URLs given are checked against the
 * installation's outbound (SSRF) policy.
 */
export function splitProviderConfig(
  type: NotifierType,
  config: Record<string, unknown>,
  stored?: { plain: Record<string, unknown>; secretsSet: ReadonlySet<string> },
  policy?: OutboundPolicy,
): { value: SplitConfig; issues: ValidationIssue[] } {
  const fields = NOTIFIER_FIELDS[type];
  const issues: ValidationIssue[] = [];
  const input = { ...config };
  for (const [key, f] of Object.entries(fields)) {
    if (f.alias === undefined || input[key] !== undefined || input[f.alias] === undefined) continue;
    input[key] = input[f.alias];
    delete input[f.alias];
  }
  const plain: Record<string, unknown> = { ...(stored?.plain ?? {}) };
  const secrets: Record<string, string> = {};
  const loc = (key: string) => ["body", "provider_config", key];
  for (const [key, value] of Object.entries(input)) {
    const f = fields[key];
    // `<key>_set` flags a client echoes back from a read are not settings.
    if (!f && key.endsWith("_set") && fields[key.slice(0, -4)]?.secret) continue;
    if (!f) {
      issues.push({
        loc: loc(key),
        msg: `Unknown key for a ${type} sink; allowed: ${Object.keys(fields).join(", ")}.`,
        type: "extra_forbidden",
      });
      continue;
    }
    if (f.secret) {
      if (value === null || value === undefined || value === "" || (typeof value === "string" && value.includes("•"))) continue;
      const problem = checkValue(key, f, value, policy) ?? f.check?.(value) ?? null;
      if (problem) issues.push({ loc: loc(key), msg: `${key} ${problem}.`, type: "value_error" });
      else secrets[key] = value as string;
      continue;
    }
    if (value === null) {
      if (f.required) issues.push({ loc: loc(key), msg: `${key} is required for a ${type} sink.`, type: "missing" });
      else delete plain[key];
      continue;
    }
    const problem = checkValue(key, f, value, policy) ?? f.check?.(value) ?? null;
    if (problem) issues.push({ loc: loc(key), msg: `${key} ${problem}.`, type: "value_error" });
    else plain[key] = typeof value === "string" ? value.trim() : value;
  }
  const present = (key: string) =>
    fields[key]?.secret ? key in secrets || (stored?.secretsSet.has(key) ?? false) : plain[key] !== undefined;
  for (const [key, f] of Object.entries(fields)) {
    if (!f.required && !(f.requiredUnless !== undefined && !present(f.requiredUnless))) continue;
    if (present(key) || issues.some((i) => i.loc[2] === key)) continue;
    issues.push({ loc: loc(key), msg: f.missing ?? `${key} is required for a ${type} sink.`, type: "missing" });
  }
  return { value: { plain, secrets }, issues };
}
