// What a provider config (hv: Proxmox VE; docker) is in the API (spec/catalogue.tsv, group integrations): the
// providers, the URL checks each one applies, and the row as it is answered (credential never, only
// `credential_set`).
import type { integrationConfigs } from "../../../db/schema/index.ts";
import { checkOutboundUrl, type OutboundPolicy } from "../../../domain/net/outbound-policy.ts";
import { ApiError } from "../../../errors.ts";
import { parseDockerUrl } from "../docker/endpoint.ts";
import { normalisePveUrl } from "../hv/pve-url.ts";

export const PROVIDERS = ["hv", "docker"] as const;
export type Provider = (typeof PROVIDERS)[number];

export type ConfigRow = typeof integrationConfigs.$inferSelect;

/** The reference's 400 for a path segment that names no provider. */
export function requireProvider(raw: string): Provider {
  if ((PROVIDERS as readonly string[]).includes(raw)) return raw as Provider;
  throw new ApiError("BAD_REQUEST", `Invalid provider '${raw.slice(0, 64)}'. Must be one of: [${PROVIDERS.join(", ")}]`);
}

/** A 422 naming one body field. */
export function fieldError(field: string, msg: string): ApiError {
  return ApiError.validation([{ loc: ["body", field], msg, type: "value_error" }]);
}

/**
 * The config URL as stored, or a 422 naming `field`. hv: normalised to scheme://host:port (https and 8006 by default), under the SSRF policy. docker: a unix
 * socket path (the operator's own engine, no address to check), tcp://host:port (its host under the
 * policy), or https://.
 */
export function checkConfigUrl(
  provider: Provider,
  raw: string,
  policy: OutboundPolicy,
  field = "config_url",
  extra: Record<string, unknown> = {},
): string {
  if (provider === "hv") {
    const url = normalisePveUrl(raw);
    if (!url.ok) throw fieldError(field, url.message);
    const check = checkOutboundUrl(url.value, policy);
    if (!check.ok) throw fieldError(field, check.message);
    return url.value;
  }
  const text = raw.trim();
  if (text.startsWith("https://")) {
    const check = checkOutboundUrl(text, policy, { schemes: ["https"] });
    if (!check.ok) throw fieldError(field, check.message);
    return text.replace(/\/+$/, "");
  }
  const parsed = parseDockerUrl(text, extra);
  if (!parsed.ok) throw fieldError(field, `${parsed.message} (or https://host:port)`);
  if (parsed.value.kind === "tcp") {
    const check = checkOutboundUrl(parsed.value.baseUrl, policy);
    if (!check.ok) throw fieldError(field, check.message);
  }
  return text;
}

/** A CA bundle given for a config: PEM certificates only. */
export function checkCaPem(pem: string | null | undefined, field = "ca_cert"): string | null | undefined {
  if (pem === undefined || pem === null) return pem;
  const text = pem.trim();
  if (text === "") return null;
  if (!/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/.test(text))
    throw fieldError(field, "Must be one or more PEM certificates (-----BEGIN CERTIFICATE-----).");
  return text;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** IntegrationProviderRead (5.B) plus ours: credential_type, credential_set, verify_ssl, ca_cert_set, last_sync_error. */
export function presentProviderConfig(row: ConfigRow) {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    config_url: row.config_url,
    credential_type: row.credential_type,
    // The reference kept the secret in a separate credentials row; ours is sealed on the config itself.
    credential_id: null,
    credential_set: row.credential !== null,
    cluster_name: row.cluster_name,
    auto_sync: row.auto_sync,
    sync_interval_s: row.sync_interval_s,
    verify_ssl: row.verify_ssl,
    ca_cert_set: row.ca_cert !== null,
    last_sync_at: iso(row.last_sync_at),
    last_sync_status: row.last_sync_status,
    last_sync_error: row.last_sync_error,
    extra_config: row.extra_config,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** ProxmoxConfigOut (5.C): the hypervisor's config, `type` "hv", the token never (only `api_token_set`). */
export function presentHvConfig(row: ConfigRow) {
  return {
    id: row.id,
    type: "hv" as const,
    name: row.name,
    config_url: row.config_url,
    cluster_name: row.cluster_name,
    auto_sync: row.auto_sync,
    sync_interval_s: row.sync_interval_s,
    last_sync_at: iso(row.last_sync_at),
    last_sync_status: row.last_sync_status,
    last_sync_error: row.last_sync_error,
    verify_ssl: row.verify_ssl,
    ca_cert_set: row.ca_cert !== null,
    api_token_set: row.credential !== null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
