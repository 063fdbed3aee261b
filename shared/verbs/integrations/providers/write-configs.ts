// Provider config writes, shared by /integrations/{provider}/config* and /integrations/hv*: create,
// change, delete. The URL is checked under the installation's SSRF policy; the credential is sealed bound
// to the row; next_sync_at follows auto_sync and sync_interval_s for the scheduled sync (the sidecar's
// integrations worker). Deleting a hypervisor config drops its external_refs (source `hv:<id>`): the
// inventory rows it imported stay, no longer matched to it.
import { and, eq } from "drizzle-orm";
import { externalRefs, integrationConfigs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { readOutboundPolicy } from "../outbound-policy.ts";
import { DELETE_INTEGRATIONS, WRITE_INTEGRATIONS } from "../scopes.ts";
import { storeCredential } from "./credential.ts";
import { hvSource } from "../hv/discover.ts";
import { parsePveToken } from "../hv/pve-token.ts";
import { checkCaPem, checkConfigUrl, type ConfigRow, fieldError, type Provider } from "./provider-config.ts";
import { vaultOf } from "../../verb-context.ts";

/** A config's fields as both APIs give them (hv's api_token arrives as credential_value). */
export interface ConfigFields {
  name?: string;
  config_url?: string;
  credential_type?: string;
  /** Clear; null clears it, undefined keeps it. */
  credential_value?: string | null;
  auto_sync?: boolean;
  sync_interval_s?: number;
  verify_ssl?: boolean;
  ca_cert?: string | null;
  extra_config?: Record<string, unknown>;
}

export interface ConfigWrite {
  provider: Provider;
  fields: ConfigFields;
  /** The body's name of the credential field, for the 422 and the audit (credential_value or api_token). */
  credentialField?: string;
  /** The 404's detail (the hypervisor routes' differs). */
  notFound?: string;
}

/** The 404 of the provider config routes (5.B); the hypervisor routes say HV_NOT_FOUND (5.C). */
export const NOT_FOUND = "Integration config not found";
export const HV_NOT_FOUND = "Integration not found";

/** A hypervisor token must parse (user@realm!tokenid=secret): a typo is a 422 naming the field, not a 401 later. */
function checkCredential({ provider, fields, credentialField = "credential_value" }: ConfigWrite): void {
  if (provider !== "hv" || typeof fields.credential_value !== "string") return;
  const parsed = parsePveToken(fields.credential_value);
  if (!parsed.ok) throw fieldError(credentialField, parsed.message);
}

const nextSync = (autoSync: boolean, from: Date, intervalS: number) => (autoSync ? new Date(from.getTime() + intervalS * 1000) : null);

/** Which fields changed, for the audit: names only where the value is secret. */
function auditDiff(fields: ConfigFields, credentialField: string): Record<string, unknown> {
  const { credential_value, ca_cert, ...clear } = fields;
  const diff: Record<string, unknown> = { ...clear };
  if (credential_value !== undefined) diff[`${credentialField}_set`] = credential_value !== null;
  if (ca_cert !== undefined) diff.ca_cert_set = ca_cert !== null;
  return diff;
}

function audit(s: VerbScope, what: string, row: ConfigRow, diff: Record<string, unknown>) {
  s.audit({
    action: `integrations.${row.type}.config.${what}`,
    category: "integrations",
    entity_type: "integration_config",
    entity_id: row.id,
    diff: { name: row.name, ...diff },
  });
}

/** The row of `id` for `provider` (another provider's row is not found here), locked for the write. */
export async function lockConfig(s: VerbScope, provider: Provider, id: number, notFound = NOT_FOUND): Promise<ConfigRow> {
  const [row] = await s.tx
    .select()
    .from(integrationConfigs)
    .where(and(eq(integrationConfigs.id, id), eq(integrationConfigs.type, provider)))
    .for("update");
  if (!row) throw new ApiError("RESOURCE_NOT_FOUND", notFound);
  return row;
}

export const createConfig = defineVerb<ConfigWrite, ConfigRow, string>(
  {
    scope: WRITE_INTEGRATIONS,
    async prepare(ctx, input) {
      const { provider, fields } = input;
      if (fields.config_url === undefined || fields.name === undefined)
        throw new ApiError("VALIDATION_ERROR", "name and config_url are required.");
      checkCaPem(fields.ca_cert);
      checkCredential(input);
      return checkConfigUrl(provider, fields.config_url, await readOutboundPolicy(ctx.db), "config_url", fields.extra_config);
    },
  },
  async (s, { provider, fields, credentialField = "credential_value" }, configUrl) => {
    const vault = vaultOf(s.ctx);
    const interval = fields.sync_interval_s ?? 300;
    const autoSync = fields.auto_sync ?? true;
    const [inserted] = await s.tx
      .insert(integrationConfigs)
      .values({
        type: provider,
        name: fields.name!,
        config_url: configUrl,
        credential_type: fields.credential_type ?? (provider === "hv" ? "proxmox_api" : "api_key"),
        auto_sync: autoSync,
        sync_interval_s: interval,
        verify_ssl: fields.verify_ssl ?? true,
        ca_cert: checkCaPem(fields.ca_cert) ?? null,
        extra_config: fields.extra_config ?? {},
        // The first scheduled sync comes soon after creation, then every sync_interval_s.
        next_sync_at: autoSync ? s.now : null,
        created_at: s.now,
        updated_at: s.now,
      })
      .returning();
    let row = inserted!;
    if (fields.credential_value) {
      await storeCredential(s, vault, row.id, fields.credential_value);
      row = { ...row, credential: "sealed" };
    }
    audit(s, "created", row, auditDiff({ ...fields, config_url: configUrl }, credentialField));
    return row;
  },
);

export const updateConfig = defineVerb<ConfigWrite & { id: number }, ConfigRow, string | undefined>(
  {
    scope: WRITE_INTEGRATIONS,
    async prepare(ctx, input) {
      const { provider, fields } = input;
      checkCaPem(fields.ca_cert);
      checkCredential(input);
      if (fields.config_url === undefined) return undefined;
      return checkConfigUrl(provider, fields.config_url, await readOutboundPolicy(ctx.db), "config_url", fields.extra_config);
    },
  },
  async (s, { provider, id, fields, credentialField = "credential_value", notFound }, configUrl) => {
    const vault = vaultOf(s.ctx);
    const before = await lockConfig(s, provider, id, notFound);
    const autoSync = fields.auto_sync ?? before.auto_sync;
    const interval = fields.sync_interval_s ?? before.sync_interval_s;
    const rescheduled = fields.auto_sync !== undefined || fields.sync_interval_s !== undefined;
    const ca = checkCaPem(fields.ca_cert);
    const [updated] = await s.tx
      .update(integrationConfigs)
      .set({
        ...(fields.name !== undefined && { name: fields.name }),
        ...(configUrl !== undefined && { config_url: configUrl }),
        ...(fields.credential_type !== undefined && { credential_type: fields.credential_type }),
        ...(fields.verify_ssl !== undefined && { verify_ssl: fields.verify_ssl }),
        ...(ca !== undefined && { ca_cert: ca }),
        ...(fields.extra_config !== undefined && { extra_config: fields.extra_config }),
        auto_sync: autoSync,
        sync_interval_s: interval,
        ...(rescheduled && { next_sync_at: nextSync(autoSync, before.last_sync_at ?? s.now, interval) }),
        updated_at: s.now,
      })
      .where(eq(integrationConfigs.id, id))
      .returning();
    let row = updated!;
    if (fields.credential_value !== undefined) {
      await storeCredential(s, vault, id, fields.credential_value);
      row = { ...row, credential: fields.credential_value === null ? null : "sealed" };
    }
    audit(s, "updated", row, auditDiff({ ...fields, ...(configUrl !== undefined && { config_url: configUrl }) }, credentialField));
    return row;
  },
);

export const deleteConfig = defineVerb<{ provider: Provider; id: number; notFound?: string }, void>(
  { scope: DELETE_INTEGRATIONS },
  async (s, { provider, id, notFound }) => {
    const row = await lockConfig(s, provider, id, notFound);
    let refs = 0;
    if (provider === "hv")
      refs = (
        await s.tx
          .delete(externalRefs)
          .where(eq(externalRefs.source, hvSource(id)))
          .returning({ id: externalRefs.id })
      ).length;
    await s.tx.delete(integrationConfigs).where(eq(integrationConfigs.id, id));
    audit(s, "deleted", row, provider === "hv" ? { external_refs_removed: refs } : {});
  },
);
