// The ACME DNS settings section (spec/catalogue.tsv, group settings): the DNS-01 credentials certificate
// issuance uses. One provider at a time; switching provider drops the old credential, provider null
// clears everything (PATCH's verb: acme-dns-update.ts). Secrets (api_token, tsig_secret) sealed apart (secret-section.ts), read as `*_set`.
import type { Db } from "../../db/database.ts";
import type { AcmeDnsPatch, AcmeDnsRead } from "../../schemas/settings-admin.ts";
import { defineRead } from "../verb.ts";
import { openSectionSecret, readSection, type Section } from "./secret-section.ts";
import { vaultOf } from "../verb-context.ts";

export const ACME_DNS_SECTION = "acme_dns";
export type Provider = NonNullable<AcmeDnsPatch["provider"]>;
export const PROVIDERS: Record<Provider, { plain: string[]; secrets: string[]; required: string[] }> = {
  cloudflare: { plain: [], secrets: ["api_token"], required: ["api_token"] },
  rfc2136: {
    plain: ["server", "port", "tsig_name", "tsig_algorithm"],
    secrets: ["tsig_secret"],
    required: ["server", "tsig_name", "tsig_secret"],
  },
};
export const PLAIN_DEFAULTS: Record<string, unknown> = { server: null, port: 53, tsig_name: null, tsig_algorithm: "hmac-sha256" };

export function present(section: Section): AcmeDnsRead {
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

/** What a dns-01 order needs of the settings, secrets opened (never returned by any route). */
export type AcmeDnsCredentials =
  | { provider: "cloudflare"; api_token: string }
  | { provider: "rfc2136"; server: string; port: number; tsig_name: string; tsig_algorithm: string; tsig_secret: string };

/**
 * The ACME DNS credentials for issuance, or null when no provider is configured (or its secret is
 * missing). Issuance is the system's work, so this is read under admin:* like the other ACME state.
 */
export const readAcmeDnsCredentials = defineRead<undefined, AcmeDnsCredentials | null>({ scope: "admin:*" }, async (ctx) => {
  const vault = vaultOf(ctx);
  const section = await readSection(ctx.db, ACME_DNS_SECTION);
  const read = present(section).acme_dns;
  if (read.provider === "cloudflare") {
    const api_token = await openSectionSecret(ctx.db, vault, ACME_DNS_SECTION, "api_token");
    return api_token ? { provider: "cloudflare", api_token } : null;
  }
  if (read.provider === "rfc2136") {
    const tsig_secret = await openSectionSecret(ctx.db, vault, ACME_DNS_SECTION, "tsig_secret");
    if (!tsig_secret || !read.server || !read.tsig_name) return null;
    return {
      provider: "rfc2136",
      server: read.server,
      port: read.port ?? 53,
      tsig_name: read.tsig_name,
      tsig_algorithm: read.tsig_algorithm ?? "hmac-sha256",
      tsig_secret,
    };
  }
  return null;
});
