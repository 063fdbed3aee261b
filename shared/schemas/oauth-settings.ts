// The body of PATCH /settings/oauth: {providers: {name: {...} | null}} (shared/verbs/settings/oauth.ts
// applies it; docs/oauth.md), and the providers as GET and PATCH /settings/oauth answer them. The provider types are the ones sign-in through a provider knows.
import * as v from "valibot";

const ProviderName = v.pipe(
  v.string(),
  v.regex(/^[a-z][a-z0-9_-]{0,31}$/, "Provider names are 1-32 lower-case letters, digits, - or _, starting with a letter."),
);
const Issuer = v.pipe(
  v.string(),
  v.trim(),
  v.url("issuer must be a URL."),
  v.check((u) => /^https?:\/\//i.test(u), "issuer must be an http(s) URL."),
  v.maxLength(2048),
);

export const PROVIDER_TYPES = ["oidc", "github", "google", "microsoft"] as const;
export type OAuthProviderType = (typeof PROVIDER_TYPES)[number];
const Tenant = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^[A-Za-z0-9.-]{1,64}$/, "tenant is a Microsoft tenant id or domain (letters, digits, . and -)."),
);

const ProviderPatch = v.strictObject({
  /** oidc (any issuer), github, google or microsoft; absent on a new provider: the name's preset, else oidc. */
  type: v.optional(v.picklist(PROVIDER_TYPES, "type is one of oidc, github, google, microsoft.")),
  client_id: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(256)))),
  issuer: v.optional(v.nullable(Issuer)),
  enabled: v.optional(v.boolean()),
  label: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64)))),
  /** Create a user on the first sign-in of an unknown identity (with default_role). */
  allow_registration: v.optional(v.boolean()),
  default_role: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64))),
  /** Microsoft only: the tenant (id, domain, or organizations/common). */
  tenant: v.optional(v.nullable(Tenant)),
  /** GitHub only (GitHub Enterprise): where /login/oauth/* lives (default https://github.com). */
  base_url: v.optional(v.nullable(Issuer)),
  /** GitHub only: the REST API root (default https://api.github.com). */
  api_url: v.optional(v.nullable(Issuer)),
  /** Write-only: a string stores it, null removes it, absent keeps it. */
  client_secret: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(1024)))),
  /** Part of the read shape, ignored on write (clients send whole records back). */
  client_secret_set: v.optional(v.boolean()),
});

/** PATCH body: {providers: {name: {...} | null}}; null removes that provider. */
export const OAuthPatchSchema = v.strictObject({ providers: v.record(ProviderName, v.nullable(ProviderPatch)) });
export type OAuthPatch = v.InferOutput<typeof OAuthPatchSchema>;

/** GET /settings/oauth and PATCH /settings/oauth's answer: the providers by name, secrets only as client_secret_set. */
export const OAuthSettingsView = v.object({
  providers: v.record(
    v.string(),
    v.object({
      type: v.picklist(PROVIDER_TYPES),
      client_id: v.nullable(v.string()),
      issuer: v.nullable(v.string()),
      enabled: v.boolean(),
      label: v.nullable(v.string()),
      allow_registration: v.boolean(),
      default_role: v.string(),
      tenant: v.nullable(v.string()),
      base_url: v.nullable(v.string()),
      api_url: v.nullable(v.string()),
      client_secret_set: v.boolean(),
    }),
  ),
});
