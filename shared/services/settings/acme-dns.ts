// PATCH /settings/acme-dns (spec/catalogue.tsv, group settings): the DNS-01 credentials certificate
// issuance uses. One provider at a time; switching provider drops the old credential, provider null
// clears everything. Secrets (api_token, tsig_secret) sealed apart (secret-section.ts), read as `*_set`.
import type { Db } from "../../db/database.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { AcmeDnsPatch, AcmeDnsRead } from "../../schemas/settings-admin.ts";
import type { Vault } from "../../vault/vault.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { readSettingsView, type SettingsView } from "./view.ts";
import { dropSectionSecrets, lockSection, openSectionSecret, readSection, secretChanges, type Section, writeSection } from "./secret-section.ts";

export const ACME_DNS_SECTION = "acme_dns";
type Provider = NonNullable<AcmeDnsPatch["provider"]>;
const PROVIDERS: Record<Provider, { plain: string[]; secrets: string[]; required: string[] }> = {
  cloudflare: { plain: [], secrets: ["api_token"], required: ["api_token"] },
  rfc2136: { plain: ["server", "port", "tsig_name", "tsig_algorithm"], secrets: ["tsig_secret"], required: ["server", "tsig_name", "tsig_secret"] },
};
const PLAIN_DEFAULTS: Record<string, unknown> = { server: null, port: 53, tsig_name: null, tsig_algorithm: "hmac-sha256" };

function present(section: Section): AcmeDnsRead {
  const provider = section.fields.provider as Provider | undefined;
  if (!provider || !(provider in PROVIDERS)) return { acme_dns: { provider: null } };
  const spec = PROVIDERS[provider];
  const plain = Object.fromEntries(spec.plain.map((k) => [k, section.fields[k] ?? PLAIN_DEFAULTS[k]]));
  const secrets = Object.fromEntries(spec.secrets.map((k) => [`${k}_set`, section.secrets.has(k)]));
  return { acme_dns: { provider, ...plain, ...secrets } };
}

export async function readAcmeDns(db: Db): Promise<AcmeDnsRead> {
  return present(await readSection(db, ACME_DNS_SECTION));
}

export const updateAcmeDnsSettings = defineVerb<AcmeDnsPatch & { vault: Vault }, SettingsView>({ scope: SETTINGS_WRITE_SCOPE }, async (s, { vault, ...patch }) => {
  const spec = patch.provider ? PROVIDERS[patch.provider] : null;
  const allowed = new Set(spec ? [...spec.plain, ...spec.secrets, ...spec.secrets.map((k) => `${k}_set`)] : []);
  const problems: ValidationIssue[] = Object.keys(patch)
    .filter((k) => k !== "provider" && patch[k as keyof AcmeDnsPatch] !== undefined && !allowed.has(k))
    .map((k) => ({ loc: ["body", k], msg: `"${k}" is not a field of provider ${patch.provider ?? "null"}.`, type: "unknown_key" }));
  const secrets = spec ? secretChanges(patch, spec.secrets) : {};
  await lockSection(s, vault, secrets);
  const section = await readSection(s.tx, ACME_DNS_SECTION);
  const before = present(section);
  const sameProvider = section.fields.provider === patch.provider;
  const fields: Record<string, unknown> | null = spec ? { provider: patch.provider } : null;
  const kept = new Set(sameProvider ? section.secrets : []);
  if (spec && fields) {
    for (const k of spec.plain) {
      const value = patch[k as keyof AcmeDnsPatch] as unknown;
      fields[k] = value !== undefined ? (value ?? PLAIN_DEFAULTS[k]) : sameProvider ? (section.fields[k] ?? PLAIN_DEFAULTS[k]) : PLAIN_DEFAULTS[k];
    }
    for (const [k, v] of Object.entries(secrets)) v === null ? kept.delete(k) : kept.add(k);
    for (const k of spec.required)
      if (fields[k] == null && !(spec.secrets.includes(k) && kept.has(k)))
        problems.push({ loc: ["body", k], msg: `Provider ${patch.provider} needs ${k}.`, type: "missing" });
  }
  if (problems.length) throw ApiError.validation(problems);
  if (!sameProvider) await dropSectionSecrets(s, ACME_DNS_SECTION);
  await writeSection(s, vault, ACME_DNS_SECTION, fields, secrets);
  const after = await readAcmeDns(s.tx);
  s.audit({ action: "settings.acme_dns_updated", category: "settings", entity_type: "settings", entity_id: ACME_DNS_SECTION, diff: { before: before.acme_dns, after: after.acme_dns, secrets_changed: Object.keys(secrets) } });
  return { ...(await readSettingsView(s.tx)), ...after };
});

/** What a dns-01 order needs of the settings, secrets opened (never returned by any route). */
export type AcmeDnsCredentials =
  | { provider: "cloudflare"; api_token: string }
  | { provider: "rfc2136"; server: string; port: number; tsig_name: string; tsig_algorithm: string; tsig_secret: string };

/**
 * The ACME DNS credentials for issuance, or null when no provider is configured (or its secret is
 * missing). Issuance is the system's work, so this is read under admin:* like the other ACME state.
 */
export const readAcmeDnsCredentials = defineRead<{ vault: Vault }, AcmeDnsCredentials | null>({ scope: "admin:*" }, async (ctx, { vault }) => {
  const section = await readSection(ctx.db, ACME_DNS_SECTION);
  const read = present(section).acme_dns;
  if (read.provider === "cloudflare") {
    const api_token = await openSectionSecret(ctx.db, vault, ACME_DNS_SECTION, "api_token");
    return api_token ? { provider: "cloudflare", api_token } : null;
  }
  if (read.provider === "rfc2136") {
    const tsig_secret = await openSectionSecret(ctx.db, vault, ACME_DNS_SECTION, "tsig_secret");
    if (!tsig_secret || !read.server || !read.tsig_name) return null;
    return { provider: "rfc2136", server: read.server, port: read.port ?? 53, tsig_name: read.tsig_name, tsig_algorithm: read.tsig_algorithm ?? "hmac-sha256", tsig_secret };
  }
  return null;
});
