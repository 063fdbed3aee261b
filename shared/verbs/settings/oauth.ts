// GET and PATCH /settings/oauth: the OAuth/OIDC provider configuration that sign-in through a provider
// reads (shared/verbs/oauth/, docs/oauth.md). The config is the `oauth` row of app_settings; each client secret is write-only and kept apart
// in server_secrets, so no settings read, export or audit diff can carry it (`client_secret_set` says
// whether one is stored). A stored secret is sealed by the vault (shared/verbs/vault/secret-columns.ts).
import { eq, inArray } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "../../db/database.ts";
import { appSettings, serverSecrets } from "../../db/schema/index.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import { checkOutboundUrl } from "../../domain/net/outbound-policy.ts";
import { scopeAllows } from "../../auth/scopes.ts";
import { type OAuthPatch, type OAuthProviderType, PROVIDER_TYPES } from "../../schemas/oauth-settings.ts";
import { actorCan } from "../actor.ts";
import { roleScopes } from "../../identity/role-scopes.ts";
import { type HostResolver, savedUrlRefusal } from "../../net/resolved-host.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import type { Vault } from "../../vault/vault.ts";
import { OAUTH_CLIENT_SECRET, oauthSecretName, openSecret, sealSecret } from "../vault/secret-columns.ts";
import { assertVaultWritable } from "../vault/writable.ts";
import { bootstrapStatus } from "../bootstrap/status.ts";
import type { ConfirmationSpec } from "../confirm/confirm.ts";
import { defineRead, defineVerb, type VerbScope } from "../verb.ts";
import { changedKeys, lockSettings } from "./apply.ts";
import { SETTINGS_READ_SCOPE, SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { vaultOf } from "../verb-context.ts";

const OAUTH_KEY = "oauth";
const MAX_PROVIDERS = 20;

export interface StoredProvider {
  type: OAuthProviderType;
  client_id: string | null;
  issuer: string | null;
  enabled: boolean;
  label: string | null;
  allow_registration: boolean;
  default_role: string;
  tenant: string | null;
  base_url: string | null;
  api_url: string | null;
}
export interface OAuthProvider extends StoredProvider {
  client_secret_set: boolean;
}
export interface OAuthSettings {
  providers: Record<string, OAuthProvider>;
}

const DEFAULT_ROLE = "viewer";
const presetType = (name: string): OAuthProviderType =>
  (PROVIDER_TYPES as readonly string[]).includes(name) ? (name as OAuthProviderType) : "oidc";
const optionalText = v.optional(v.nullable(v.string()), null);

// Rows stored before the provider fields existed read with their defaults.
const StoredSchema = v.object({
  providers: v.record(
    v.string(),
    v.object({
      type: v.optional(v.picklist(PROVIDER_TYPES)),
      client_id: v.nullable(v.string()),
      issuer: v.nullable(v.string()),
      enabled: v.boolean(),
      label: optionalText,
      allow_registration: v.optional(v.boolean(), false),
      default_role: v.optional(v.string(), DEFAULT_ROLE),
      tenant: optionalText,
      base_url: optionalText,
      api_url: optionalText,
    }),
  ),
});

/** The stored provider configuration (no secrets), for the sign-in flow. */
export async function readOAuthProviders(db: Db): Promise<Record<string, StoredProvider>> {
  const stored = await readStored(db);
  return Object.fromEntries(Object.entries(stored).map(([n, p]) => [n, { ...p, type: p.type ?? presetType(n) }]));
}

async function readStored(db: Db): Promise<Record<string, StoredProvider>> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, OAUTH_KEY));
  const parsed = v.safeParse(StoredSchema, row?.value);
  if (!parsed.success) return {};
  return Object.fromEntries(Object.entries(parsed.output.providers).map(([n, p]) => [n, { ...p, type: p.type ?? presetType(n) }]));
}

async function present(db: Db, providers: Record<string, StoredProvider>): Promise<OAuthSettings> {
  const names = Object.keys(providers);
  const secrets = names.length
    ? await db
        .select({ name: serverSecrets.name })
        .from(serverSecrets)
        .where(inArray(serverSecrets.name, names.map(oauthSecretName)))
    : [];
  const set = new Set(secrets.map((s) => s.name));
  return {
    providers: Object.fromEntries(names.sort().map((n) => [n, { ...providers[n]!, client_secret_set: set.has(oauthSecretName(n)) }])),
  };
}

/** A provider's client secret, opened by the vault; null when none is stored. */
export async function readClientSecret(db: Db, vault: Vault, provider: string): Promise<string | null> {
  const [row] = await db
    .select({ value: serverSecrets.value })
    .from(serverSecrets)
    .where(eq(serverSecrets.name, oauthSecretName(provider)));
  return row ? openSecret(vault, OAUTH_CLIENT_SECRET, oauthSecretName(provider), row.value) : null;
}

/** The URLs a provider is reached at: an administrator's to read, like every setting holding an address (issue 36 item 8). */
const hideAddresses = (settings: OAuthSettings): OAuthSettings => ({
  providers: Object.fromEntries(
    Object.entries(settings.providers).map(([n, p]) => [n, { ...p, issuer: null, base_url: null, api_url: null }]),
  ),
});

export const getOAuthSettings = defineRead({ scope: SETTINGS_READ_SCOPE }, async (ctx) => {
  const settings = await present(ctx.db, await readStored(ctx.db));
  return ctx.actor && actorCan(ctx.actor, SETTINGS_WRITE_SCOPE) ? settings : hideAddresses(settings);
});

function mergeProviders(stored: Record<string, StoredProvider>, patch: OAuthPatch): Record<string, StoredProvider> {
  const next = { ...stored };
  for (const [name, p] of Object.entries(patch.providers)) {
    if (p === null) {
      delete next[name];
      continue;
    }
    const cur: StoredProvider = next[name] ?? {
      type: presetType(name),
      client_id: null,
      issuer: null,
      enabled: false,
      label: null,
      allow_registration: false,
      default_role: DEFAULT_ROLE,
      tenant: null,
      base_url: null,
      api_url: null,
    };
    const { client_secret: _secret, client_secret_set: _set, ...fields } = p;
    const merged = { ...cur };
    for (const [k, value] of Object.entries(fields)) if (value !== undefined) (merged as Record<string, unknown>)[k] = value;
    next[name] = merged;
  }
  return next;
}

/** What an enabled provider of each type needs besides its client_id. */
const NEEDS: Record<OAuthProviderType, { field: keyof StoredProvider | null; text: string }> = {
  oidc: { field: "issuer", text: "client_id and issuer" },
  microsoft: { field: "tenant", text: "client_id and tenant" },
  github: { field: null, text: "client_id" },
  google: { field: null, text: "client_id" },
};

/** The URLs sign-in fetches from: checked against the outbound policy when saved, as at connect. */
const URL_FIELDS = ["issuer", "base_url", "api_url"] as const;

/** The URL fields a patch changes (clients send whole records back; a stored value is judged again at connect). */
async function urlIssues(
  db: Db,
  input: OAuthPatch,
  stored: Record<string, StoredProvider>,
  resolve: HostResolver | undefined,
): Promise<ValidationIssue[]> {
  const sent = Object.entries(input.providers).flatMap(([name, p]) =>
    URL_FIELDS.flatMap((field) => (p?.[field] && p[field] !== stored[name]?.[field] ? [{ name, field, url: p[field]! }] : [])),
  );
  if (!sent.length) return [];
  const policy = await readOutboundPolicy(db);
  const issues: ValidationIssue[] = [];
  for (const { name, field, url } of sent) {
    const check = checkOutboundUrl(url, policy);
    const reason = check.ok ? await savedUrlRefusal(resolve, url, policy) : check.message;
    if (reason !== null)
      issues.push({
        loc: ["body", "providers", name, field],
        msg: `${field}: ${check.ok ? `The URL's host is not allowed: ${reason}.` : reason}`,
        type: "value_error",
      });
  }
  return issues;
}

/**
 * Registering new users straight into an administrator's role through a provider is high-impact
 * (issue 36 item 1): an administrator asks for it with these confirmation headers.
 */
export const ADMIN_REGISTRATION: ConfirmationSpec = { action: "oauth-admin-registration" };

const grantsAdmin = async (db: Db, role: string) => scopeAllows(await roleScopes(db, role), "admin:*");

interface IssueContext {
  stored: Record<string, StoredProvider>;
  /** No administrator yet: the caller holds the first-run grant. */
  firstRun: boolean;
  /** The request came through ADMIN_REGISTRATION's confirmation. */
  adminRoleConfirmed: boolean;
}

async function providerIssues(
  db: Db,
  providers: Record<string, StoredProvider>,
  patched: string[],
  at: IssueContext,
): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  if (Object.keys(providers).length > MAX_PROVIDERS)
    issues.push({ loc: ["body", "providers"], msg: `At most ${MAX_PROVIDERS} providers.`, type: "too_many" });
  for (const [name, p] of Object.entries(providers)) {
    const need = NEEDS[p.type];
    if (p.enabled && (!p.client_id || (need.field && !p[need.field])))
      issues.push({
        loc: ["body", "providers", name, "enabled"],
        msg: `Provider "${name}" needs ${need.text} before it can be enabled.`,
        type: "value_error",
      });
    if (!patched.includes(name)) continue;
    if ((await roleScopes(db, p.default_role)).length === 0) {
      issues.push({ loc: ["body", "providers", name, "default_role"], msg: `Unknown role "${p.default_role}".`, type: "value_error" });
      continue;
    }
    // Before first run nobody is an administrator yet: what is configured now must not let strangers in
    // after it (the first account through a provider becomes the administrator only with the setup token).
    if (at.firstRun && p.allow_registration)
      issues.push({
        loc: ["body", "providers", name, "allow_registration"],
        msg: "Registration through a provider can be turned on only by an administrator, after first run.",
        type: "value_error",
      });
    const admin = await grantsAdmin(db, p.default_role);
    if (admin && at.firstRun) {
      issues.push({
        loc: ["body", "providers", name, "default_role"],
        msg: `The role "${p.default_role}" administers this installation: only an administrator can make it a provider's default role, after first run.`,
        type: "value_error",
      });
      continue;
    }
    const before = at.stored[name];
    const wasAdmin = before ? await grantsAdmin(db, before.default_role) : false;
    if (admin && !at.adminRoleConfirmed && (!wasAdmin || (p.allow_registration && !before?.allow_registration)))
      issues.push({
        loc: ["body", "providers", name, "default_role"],
        msg: `New users through "${name}" would be administrators (role "${p.default_role}"): send x-svc-confirmation: ${ADMIN_REGISTRATION.action} and an Idempotency-Key to confirm.`,
        type: "value_error",
      });
  }
  return issues;
}

/**
 * First run is over: registration that was turned on before it (by no administrator, or by one the
 * installation since lost) goes off until an administrator turns it on again. In the caller's transaction.
 */
export async function closeProviderRegistration(s: VerbScope): Promise<void> {
  await lockSettings(s);
  const stored = await readStored(s.tx);
  const open = Object.keys(stored).filter((n) => stored[n]!.allow_registration);
  if (!open.length) return;
  const next = Object.fromEntries(Object.entries(stored).map(([n, p]) => [n, { ...p, allow_registration: false }]));
  await s.tx
    .update(appSettings)
    .set({ value: { providers: next }, updated_at: s.now })
    .where(eq(appSettings.key, OAUTH_KEY));
  s.audit({
    action: "settings.oauth_updated",
    category: "settings",
    entity_type: "settings",
    entity_id: OAUTH_KEY,
    diff: {
      before: Object.fromEntries(open.map((n) => [n, { allow_registration: true }])),
      after: Object.fromEntries(open.map((n) => [n, { allow_registration: false }])),
      reason: "first run",
    },
  });
}

export const updateOAuthSettings = defineVerb<OAuthPatch & { adminRoleConfirmed?: boolean }, OAuthSettings>(
  { scope: SETTINGS_WRITE_SCOPE },
  async (s, { adminRoleConfirmed, ...input }) => {
    const vault = vaultOf(s.ctx);
    // Before any lock: in the order a rotation locks (the vault's state, then the secret rows).
    if (Object.values(input.providers).some((p) => p?.client_secret != null)) await assertVaultWritable(s.tx, vault, s.now);
    await lockSettings(s);
    const stored = await readStored(s.tx);
    const next = mergeProviders(stored, input);
    const firstRun = !(await bootstrapStatus({ ctx: { db: s.tx } })).bootstrapped;
    const issues = [
      ...(await urlIssues(s.tx, input, stored, s.ctx.resolveHost)),
      ...(await providerIssues(
        s.tx,
        next,
        Object.keys(input.providers).filter((n) => input.providers[n]),
        { stored, firstRun, adminRoleConfirmed: adminRoleConfirmed === true && !firstRun },
      )),
    ];
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
      s.audit({
        action: "settings.oauth_updated",
        category: "settings",
        entity_type: "settings",
        entity_id: OAUTH_KEY,
        diff: { before: diff.before, after: diff.after, client_secrets_changed: secretsChanged },
      });
    return after;
  },
);
