// SinkOut: the plain keys as stored, every secret key of the provider masked with its `<key>_set` flag
// (spec/catalogue.tsv, group notifications). A secret that cannot be opened (a vault without the right key) still says
// it is set, masked bare.
import { isNotifierType, secretKeys } from "../../domain/notifications/notifiers/index.ts";
import { MASK, maskSecret } from "../../domain/notifications/mask.ts";
import type { SinkShape } from "../../schemas/notifications.ts";
import type { Vault } from "../../vault/vault.ts";
import { openSinkSecrets, type SinkRow } from "./sink-secrets.ts";

export async function presentSink(vault: Vault, row: SinkRow): Promise<SinkShape> {
  const config: Record<string, unknown> = { ...row.provider_config };
  if (isNotifierType(row.provider_type)) {
    const secrets = await openSinkSecrets(vault, row).catch(() => null);
    for (const key of secretKeys(row.provider_type)) {
      const set = secrets ? secrets[key] != null : row.secrets != null;
      config[key] = set ? (secrets?.[key] ? maskSecret(secrets[key]) : MASK) : null;
      config[`${key}_set`] = set;
    }
  }
  return {
    id: row.id,
    name: row.name,
    provider_type: row.provider_type,
    provider_config: config,
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
