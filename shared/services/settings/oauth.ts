// GET and PATCH /settings/oauth: the OAuth/OIDC provider configuration (sign-in through it is not built
// yet). The config is the `oauth` row of app_settings; each client secret is write-only and kept apart
// in server_secrets, so no settings read, export or audit diff can carry it (`client_secret_set` says
// whether one is stored). A stored secret is sealed by the vault (shared/services/vault/secret-columns.ts).
import { eq, inArray } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "../../db/database.ts";
import { appSettings, serverSecrets } from "../../db/schema/index.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { Vault } from "../../vault/vault.ts";
import { OAUTH_CLIENT_SECRET, oauthSecretName, sealSecret } from "../vault/secret-columns.ts";
import { assertVaultWritable } from "../vault/writable.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { changedKeys, lockSettings } from "./apply.ts";
import { SETTINGS_READ_SCOPE, SETTINGS_WRITE_SCOPE } from "./read-all.ts";

const OAUTH_KEY = "oauth";
const MAX_PROVIDERS = 20;

const ProviderName = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_-]{0,31}$/, "Provider names are 1-32 lower-case letters, digits, - or _, starting with a letter."));
const Issuer = v.pipe(
  v.string(),
  v.trim(),
  v.url("issuer must be a URL."),
  v.check((u) => /^https?:\/\//i.test(u), "issuer must be an http(s) URL."),
  v.maxLength(2048),
);

const ProviderPatch = v.strictObject({
  client_id: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(256)))),
  issuer: v.optional(v.nullable(Issuer)),
  enabled: v.optional(v.boolean()),
  /** Write-only: a string stores it, null removes it, absent keeps it. */
  client_secret: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(1024)))),
  /** Part of the read shape, ignored on write (clients send whole records back). */
  client_secret_set: v.optional(v.boolean()),
});

/** PATCH body: {providers: {name: {...} | null}}; null removes that provider. */
export const OAuthPatchSchema = v.strictObject({ providers: v.record(ProviderName, v.nullable(ProviderPatch)) });
export type OAuthPatch = v.InferOutput<typeof OAuthPatchSchema>;

interface StoredProvider {
  client_id: string | null;
  issuer: string | null;
  enabled: boolean;
}
export interface OAuthProvider extends StoredProvider {
  client_secret_set: boolean;
}
export interface OAuthSettings {
  providers: Record<string, OAuthProvider>;
}

const StoredSchema = v.object({
  providers: v.record(v.string(), v.object({ client_id: v.nullable(v.string()), issuer: v.nullable(v.string()), enabled: v.boolean() })),
});

async function readStored(db: Db): Promise<Record<string, StoredProvider>> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, OAUTH_KEY));
  const parsed = v.safeParse(StoredSchema, row?.value);
  return parsed.success ? parsed.output.providers : {};
}

async function present(db: Db, providers: Record<string, StoredProvider>): Promise<OAuthSettings> {
  const names = Object.keys(providers);
  const secrets = names.length
    ? await db.select({ name: serverSecrets.name }).from(serverSecrets).where(inArray(serverSecrets.name, names.map(oauthSecretName)))
    : [];
  const set = new Set(secrets.map((s) => s.name));
  return {
    providers: Object.fromEntries(names.sort().map((n) => [n, { ...providers[n]!, client_secret_set: set.has(oauthSecretName(n)) }])),
  };
}

export const getOAuthSettings = defineRead({ scope: SETTINGS_READ_SCOPE }, async (ctx) => present(ctx.db, await readStored(ctx.db)));

function mergeProviders(stored: Record<string, StoredProvider>, patch: OAuthPatch): Record<string, StoredProvider> {
  const next = { ...stored };
  for (const [name, p] of Object.entries(patch.providers)) {
    if (p === null) {
      delete next[name];
      continue;
    }
    const cur = next[name] ?? { client_id: null, issuer: null, enabled: false };
    next[name] = { client_id: p.client_id === undefined ? cur.client_id : p.client_id, issuer: p.issuer === undefined ? cur.issuer : p.issuer, enabled: p.enabled ?? cur.enabled };
  }
  return next;
}

function providerIssues(providers: Record<string, StoredProvider>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (Object.keys(providers).length > MAX_PROVIDERS)
    issues.push({ loc: ["body", "providers"], msg: `At most ${MAX_PROVIDERS} providers.`, type: "too_many" });
  for (const [name, p] of Object.entries(providers))
    if (p.enabled && (!p.client_id || !p.issuer))
      issues.push({ loc: ["body", "providers", name, "enabled"], msg: `Provider "${name}" needs client_id and issuer before it can be enabled.`, type: "value_error" });
  return issues;
}

export const updateOAuthSettings = defineVerb<OAuthPatch & { vault: Vault }, OAuthSettings>({ scope: SETTINGS_WRITE_SCOPE }, async (s, { vault, ...input }) => {
  // Before any lock: in the order a rotation locks (the vault's state, then the secret rows).
  if (Object.values(input.providers).some((p) => p?.client_secret != null)) await assertVaultWritable(s.tx, vault, s.now);
  await lockSettings(s);
  const stored = await readStored(s.tx);
  const next = mergeProviders(stored, input);
  const issues = providerIssues(next);
  if (issues.length) throw ApiError.validation(issues);
  const before = await present(s.tx, stored);
  await s.tx
    .insert(appSettings)
    .values({ key: OAUTH_KEY, value: { providers: next }, updated_at: s.now })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: { providers: next }, updated_at: s.now } });
  const secretsChanged: string[] = [];
  for (const [name, p] of Object.entries(input.providers)) {
    const secret = p === null ? null : p.client_secret;
    if (secret === undefined) continue;
    await s.tx.delete(serverSecrets).where(eq(serverSecrets.name, oauthSecretName(name)));
    if (secret !== null) {
      const value = await sealSecret(vault, OAUTH_CLIENT_SECRET, oauthSecretName(name), secret);
      await s.tx.insert(serverSecrets).values({ name: oauthSecretName(name), value, created_at: s.now });
    }
    secretsChanged.push(name);
  }
  const after = await present(s.tx, next);
  const diff = changedKeys(before.providers, after.providers);
  // A replaced secret leaves client_secret_set as it was; the entry still records the change.
  if (diff.keys.length || secretsChanged.length)
    s.audit({ action: "settings.oauth_updated", category: "settings", entity_type: "settings", entity_id: OAUTH_KEY, diff: { before: diff.before, after: diff.after, client_secrets_changed: secretsChanged } });
  return after;
});
