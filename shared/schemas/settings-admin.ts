// Bodies and answers of PATCH /settings/smtp, /settings/acme-dns and /settings/firewall, and the body of PUT
// /settings and the settings map GET /settings, PUT /settings and the reset answer (spec/catalogue.tsv, group settings).
import * as v from "valibot";
import { SETTING_ENTRIES } from "../verbs/settings/rules.ts";
import { patchBody } from "./fields.ts";

const Host = v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(253));
const Secret = v.nullable(v.pipe(v.string(), v.minLength(1, "Must not be empty."), v.maxLength(4096)));
const Port = v.pipe(v.number(), v.integer("Must be an integer."), v.minValue(1), v.maxValue(65535));

export const SmtpPatchSchema = v.strictObject({
  smtp_enabled: v.optional(v.boolean()),
  smtp_host: v.optional(v.nullable(Host)),
  smtp_port: v.optional(v.nullable(Port)),
  smtp_username: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(320)))),
  /** Write-only: a string stores it (sealed), null removes it, absent or "•••" keeps it. */
  smtp_password: v.optional(Secret),
  smtp_from_email: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.email("Must be an email address."), v.maxLength(320)))),
  smtp_from_name: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(200)))),
  smtp_tls: v.optional(v.nullable(v.boolean())),
  /** false accepts a self-signed certificate (a homelab's own mail server). */
  smtp_verify_tls: v.optional(v.nullable(v.boolean())),
  /** Part of the read shape, ignored on write. */
  smtp_password_set: v.optional(v.boolean()),
  smtp_last_test_at: v.optional(v.nullable(v.string())),
  smtp_last_test_status: v.optional(v.nullable(v.string())),
});
export type SmtpPatch = v.InferOutput<typeof SmtpPatchSchema>;

export const SmtpReadSchema = v.object({
  smtp_enabled: v.boolean(),
  smtp_host: v.nullable(v.string()),
  smtp_port: v.number(),
  smtp_username: v.nullable(v.string()),
  smtp_password_set: v.boolean(),
  smtp_from_email: v.nullable(v.string()),
  smtp_from_name: v.string(),
  smtp_tls: v.boolean(),
  smtp_verify_tls: v.boolean(),
  smtp_last_test_at: v.nullable(v.string()),
  smtp_last_test_status: v.nullable(v.picklist(["ok", "error"])),
});
/** PATCH /settings/smtp's answer: every setting, with the SMTP ones as SmtpReadSchema says. */
export const SettingsWithSmtp = v.looseObject(SmtpReadSchema.entries);
export type SmtpRead = v.InferOutput<typeof SmtpReadSchema>;

export const ACME_DNS_PROVIDERS = ["cloudflare", "rfc2136"] as const;
export const TSIG_ALGORITHMS = ["hmac-sha256", "hmac-sha512", "hmac-sha384", "hmac-sha224", "hmac-sha1", "hmac-md5"] as const;

/** One body for every provider: which fields a provider needs is checked in the verb, naming each. */
export const AcmeDnsPatchSchema = v.strictObject({
  provider: v.nullable(v.picklist(ACME_DNS_PROVIDERS, `Unsupported provider: one of ${ACME_DNS_PROVIDERS.join(", ")}, or null.`)),
  api_token: v.optional(Secret),
  server: v.optional(v.nullable(Host)),
  port: v.optional(v.nullable(Port)),
  tsig_name: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(253)))),
  tsig_algorithm: v.optional(v.nullable(v.picklist(TSIG_ALGORITHMS))),
  tsig_secret: v.optional(
    v.nullable(v.pipe(v.string(), v.trim(), v.regex(/^[A-Za-z0-9+/]+={0,2}$/, "Must be base64."), v.maxLength(1024))),
  ),
  api_token_set: v.optional(v.boolean()),
  tsig_secret_set: v.optional(v.boolean()),
});
export type AcmeDnsPatch = v.InferOutput<typeof AcmeDnsPatchSchema>;

export const AcmeDnsReadSchema = v.object({
  acme_dns: v.object({
    provider: v.nullable(v.picklist(ACME_DNS_PROVIDERS)),
    api_token_set: v.optional(v.boolean()),
    server: v.optional(v.nullable(v.string())),
    port: v.optional(v.number()),
    tsig_name: v.optional(v.nullable(v.string())),
    tsig_algorithm: v.optional(v.string()),
    tsig_secret_set: v.optional(v.boolean()),
  }),
});
/** PATCH /settings/acme-dns's answer: every setting, with the acme_dns section. */
export const SettingsWithAcmeDns = v.looseObject(AcmeDnsReadSchema.entries);
export type AcmeDnsRead = v.InferOutput<typeof AcmeDnsReadSchema>;

/** PATCH /settings/firewall: where GET /settings/firewall/test finds the OPNsense API and its key pair. */
export const FirewallPatchSchema = v.strictObject({
  firewall_url: v.optional(
    v.nullable(
      v.pipe(v.string(), v.trim(), v.url("Must be a URL."), v.regex(/^https?:\/\//i, "Must be an http(s) URL."), v.maxLength(2048)),
    ),
  ),
  firewall_verify_tls: v.optional(v.nullable(v.boolean())),
  /** Write-only, like every secret here: absent or "•••" keeps, null removes. */
  firewall_api_key: v.optional(Secret),
  firewall_api_secret: v.optional(Secret),
  firewall_api_key_set: v.optional(v.boolean()),
  firewall_api_secret_set: v.optional(v.boolean()),
});
export type FirewallPatch = v.InferOutput<typeof FirewallPatchSchema>;

export const FirewallReadSchema = v.object({
  firewall_url: v.nullable(v.string()),
  firewall_verify_tls: v.boolean(),
  firewall_api_key_set: v.boolean(),
  firewall_api_secret_set: v.boolean(),
});
export type FirewallRead = v.InferOutput<typeof FirewallReadSchema>;

export const FirewallTestSchema = v.object({
  ok: v.boolean(),
  version: v.nullable(v.string()),
  arp_count: v.nullable(v.number()),
  lease_count: v.nullable(v.number()),
  kea: v.boolean(),
  error: v.nullable(v.string()),
});
export type FirewallTest = v.InferOutput<typeof FirewallTestSchema>;

export const SmtpTestQuery = v.object({
  send_to: v.optional(v.pipe(v.string(), v.trim(), v.email("Must be an email address."), v.maxLength(320))),
});
export const SmtpTestSchema = v.object({ status: v.picklist(["ok", "error"]), message: v.string() });
export type SmtpTest = v.InferOutput<typeof SmtpTestSchema>;

/** Each section key of the read shape with the route that changes it. */
export const SECTION_KEYS: ReadonlyMap<string, string> = new Map([
  ...Object.keys(SmtpReadSchema.entries).map((k) => [k, "PATCH /api/v1/settings/smtp"] as const),
  ...Object.keys(AcmeDnsReadSchema.entries).map((k) => [k, "PATCH /api/v1/settings/acme-dns"] as const),
  ...Object.keys(FirewallReadSchema.entries).map((k) => [k, "PATCH /api/v1/settings/firewall"] as const),
]);

/** The body of PUT /settings: the plain keys (validated by their rules) and the sections' keys (compared by the verb). */
export const SettingsPutSchema = patchBody({
  ...SETTING_ENTRIES,
  ...Object.fromEntries([...SECTION_KEYS.keys()].map((k) => [k, v.unknown()])),
});

/** GET /settings, PUT /settings and POST /settings/reset: every setting by its key. */
export const AllSettings = v.record(v.string(), v.unknown());
