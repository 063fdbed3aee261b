// Every column that holds vault ciphertexts (docs/architecture.md, API contracts), so that a rotation re-encrypts all of
// them, the startup migration encrypts what an older release stored in clear, and GET /health/vault counts
// them. A new secret column is one entry here: nothing else needs to know where secrets live.
//
// `context` is the additional authenticated data a value is sealed with: it names the column and the row,
// so a ciphertext copied into another row or column fails its tag instead of decrypting there.
import { and, isNotNull, like, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../db/database.ts";
import {
  agentServerKeys,
  certificates,
  discoveryProfiles,
  integrationConfigs,
  integrations,
  monitors,
  notificationSinks,
  scanJobs,
  serverSecrets,
  telemetryConfigs,
} from "../../db/schema/index.ts";
import { isCiphertext, type Vault } from "../../vault/vault.ts";

export interface SecretColumn {
  /** table.column, as logs and audit entries name it. */
  name: string;
  table: PgTable;
  /** The column that names the row (the primary key, or what the context is bound to). */
  key: PgColumn;
  value: PgColumn;
  /** The rows of the table that hold this secret, when the column also holds other values. */
  rows?: SQL;
  context(key: string): string;
  /** Whether rows stored in clear (before the vault) are encrypted by the startup migration. */
  migrateClear: boolean;
}

export const SNMP_COMMUNITY: SecretColumn = {
  name: "telemetry_configs.community",
  table: telemetryConfigs,
  key: telemetryConfigs.hardware_id,
  value: telemetryConfigs.community,
  context: (hardwareId) => `telemetry_configs.community:${hardwareId}`,
  migrateClear: true,
};

/** A telemetry poll's SNMPv3 keys, one JSON object {auth_key?, priv_key?} (docs/adr/0489). */
export const SNMP_USM_KEYS: SecretColumn = {
  name: "telemetry_configs.usm_keys",
  table: telemetryConfigs,
  key: telemetryConfigs.hardware_id,
  value: telemetryConfigs.usm_keys,
  context: (hardwareId) => `telemetry_configs.usm_keys:${hardwareId}`,
  // Always written encrypted (v3 polls arrived with the vault).
  migrateClear: false,
};

/** The prefix and suffix of an OAuth client secret's name in server_secrets (oauth.<provider>.client_secret). */
export const oauthSecretName = (provider: string) => `oauth.${provider}.client_secret`;

export const OAUTH_CLIENT_SECRET: SecretColumn = {
  name: "server_secrets.value (oauth client secrets)",
  table: serverSecrets,
  key: serverSecrets.name,
  value: serverSecrets.value,
  // server_secrets also keeps the session signing key and the setup token's hash, which are not vault values.
  rows: like(serverSecrets.name, oauthSecretName("%")),
  context: (name) => `server_secrets.value:${name}`,
  migrateClear: true,
};

/** A settings section's secret in server_secrets (settings.<section>.<field>: the SMTP password, ACME DNS tokens). */
export const settingsSecretName = (section: string, field: string) => `settings.${section}.${field}`;

export const SETTINGS_SECRETS: SecretColumn = {
  name: "server_secrets.value (settings secrets)",
  table: serverSecrets,
  key: serverSecrets.name,
  value: serverSecrets.value,
  rows: like(serverSecrets.name, settingsSecretName("%", "%")),
  context: (name) => `server_secrets.value:${name}`,
  // Always written encrypted (these settings arrived with the vault).
  migrateClear: false,
};

/** An ACME account's private key in server_secrets, one per directory URL (acme.account_key.<url>). */
export const acmeAccountKeyName = (directoryUrl: string) => `acme.account_key.${directoryUrl}`;

export const ACME_ACCOUNT_KEY: SecretColumn = {
  name: "server_secrets.value (ACME account keys)",
  table: serverSecrets,
  key: serverSecrets.name,
  value: serverSecrets.value,
  rows: like(serverSecrets.name, "acme.account_key.%"),
  context: (name) => `server_secrets.value:${name}`,
  // Always written encrypted (ACME arrived with the vault).
  migrateClear: false,
};

export const AGENT_SERVER_PRIVATE_KEY: SecretColumn = {
  name: "agent_server_keys.private_key",
  table: agentServerKeys,
  key: agentServerKeys.public_key,
  value: agentServerKeys.private_key,
  // The same context shared/verbs/agents/server-key.ts seals with (its privateKeyContext).
  context: (publicKeyHex) => `agent_server_keys.private_key:${publicKeyHex}`,
  // Always written encrypted: a clear value there is not ours to guess about.
  migrateClear: false,
};

export const NOTIFICATION_SINK_SECRETS: SecretColumn = {
  name: "notification_sinks.secrets",
  table: notificationSinks,
  key: notificationSinks.id,
  value: notificationSinks.secrets,
  // One sealed JSON object {key: secret} per sink (shared/verbs/notifications/sink-secrets.ts).
  context: (sinkId) => `notification_sinks.secrets:${sinkId}`,
  migrateClear: false,
};

/** An http monitor's password, token and credential headers, as one sealed JSON object (shared/verbs/monitors/secrets.ts). */
export const MONITOR_SECRET_CONFIG: SecretColumn = {
  name: "monitors.secret_config",
  table: monitors,
  key: monitors.id,
  value: monitors.secret_config,
  context: (monitorId) => `monitors.secret_config:${monitorId}`,
  // Always written encrypted (monitors arrived with the vault).
  migrateClear: false,
};

/** A discovery profile's SNMP community (shared/verbs/discovery/jobs/snmp-community.ts). */
export const DISCOVERY_PROFILE_SNMP_COMMUNITY: SecretColumn = {
  name: "discovery_profiles.snmp_community",
  table: discoveryProfiles,
  key: discoveryProfiles.id,
  value: discoveryProfiles.snmp_community,
  context: (profileId) => `discovery_profiles.snmp_community:${profileId}`,
  migrateClear: false,
};

/** The SNMP community an ad-hoc scan job was given (a profile's jobs read their profile's). */
export const SCAN_JOB_SNMP_COMMUNITY: SecretColumn = {
  name: "scan_jobs.snmp_community",
  table: scanJobs,
  key: scanJobs.id,
  value: scanJobs.snmp_community,
  context: (jobId) => `scan_jobs.snmp_community:${jobId}`,
  migrateClear: false,
};

/** A provider config's credential: the hypervisor's API token, a Docker client certificate (shared/verbs/integrations/providers/credential.ts). */
export const INTEGRATION_CONFIG_CREDENTIAL: SecretColumn = {
  name: "integration_configs.credential",
  table: integrationConfigs,
  key: integrationConfigs.id,
  value: integrationConfigs.credential,
  context: (configId) => `integration_configs.credential:${configId}`,
  migrateClear: false,
};

/** A monitoring integration's API key (Uptime Kuma's /metrics; shared/verbs/integrations/monitoring/api-key.ts). */
export const INTEGRATION_API_KEY: SecretColumn = {
  name: "integrations.api_key",
  table: integrations,
  key: integrations.id,
  value: integrations.api_key,
  context: (integrationId) => `integrations.api_key:${integrationId}`,
  migrateClear: false,
};

/** A TLS certificate's private key PEM (shared/verbs/certificates/). */
export const CERTIFICATE_KEY: SecretColumn = {
  name: "certificates.key_pem",
  table: certificates,
  key: certificates.id,
  value: certificates.key_pem,
  context: (certificateId) => `certificates.key_pem:${certificateId}`,
  // Always written encrypted (certificates arrived with the vault).
  migrateClear: false,
};

export const SECRET_COLUMNS: readonly SecretColumn[] = [
  SNMP_COMMUNITY,
  SNMP_USM_KEYS,
  OAUTH_CLIENT_SECRET,
  AGENT_SERVER_PRIVATE_KEY,
  NOTIFICATION_SINK_SECRETS,
  MONITOR_SECRET_CONFIG,
  DISCOVERY_PROFILE_SNMP_COMMUNITY,
  SCAN_JOB_SNMP_COMMUNITY,
  INTEGRATION_CONFIG_CREDENTIAL,
  INTEGRATION_API_KEY,
  SETTINGS_SECRETS,
  ACME_ACCOUNT_KEY,
  CERTIFICATE_KEY,
];

export interface StoredSecret {
  column: SecretColumn;
  /** The key column's value, as stored (a number or a string). */
  key: string | number;
  value: string;
}

const holding = (column: SecretColumn) => and(isNotNull(column.value), column.rows);

/** The stored values of a column (ciphertexts and any clear ones), locked for update when `lock`. */
export async function storedSecrets(db: Db, column: SecretColumn, lock: boolean): Promise<StoredSecret[]> {
  const query = db.select({ key: column.key, value: column.value }).from(column.table).where(holding(column));
  const rows = (lock ? await query.for("update") : await query) as { key: string | number; value: string | null }[];
  return rows.filter((r) => r.value != null && r.value !== "").map((r) => ({ column, key: r.key, value: r.value! }));
}

/** Replaces one stored value (the row named by its key column). */
export async function replaceSecret(db: Db, secret: StoredSecret, value: string): Promise<void> {
  const { column } = secret;
  await db.execute(sql`update ${column.table} set ${sql.identifier(column.value.name)} = ${value} where ${column.key} = ${secret.key}`);
}

/** How many vault ciphertexts the installation stores, over every secret column. */
export async function countEncryptedSecrets(db: Db): Promise<number> {
  let total = 0;
  for (const column of SECRET_COLUMNS) {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(column.table)
      .where(and(holding(column), like(column.value, "vault:v1:%")));
    total += row?.n ?? 0;
  }
  return total;
}

/** Seals `plaintext` for row `key` of `column`. */
export function sealSecret(vault: Vault, column: SecretColumn, key: string | number, plaintext: string): Promise<string> {
  return vault.encrypt(plaintext, column.context(String(key)));
}

/**
 * Opens a stored value of row `key`. A value still in clear (written before the vault, not yet migrated
 * by the sidecar's start) is answered as it is, so an upgrade in progress keeps working.
 */
export function openSecret(vault: Vault, column: SecretColumn, key: string | number, stored: string): Promise<string> {
  return isCiphertext(stored) ? vault.decrypt(stored, column.context(String(key))) : Promise.resolve(stored);
}
