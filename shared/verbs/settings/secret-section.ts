// A settings section with secrets (SMTP, ACME DNS): its plain fields are one app_settings row (key =
// the section), each secret a server_secrets row `settings.<section>.<field>` sealed by the vault
// (SETTINGS_SECRETS in shared/verbs/vault/secret-columns.ts), so no settings read, export or audit
// diff can carry one. Reads say `<field>_set`. On write a string stores a secret, null removes it, and
// absence or the UI's mask keeps it.
import { and, eq, like } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { appSettings, serverSecrets } from "../../db/schema/index.ts";
import type { Vault } from "../../vault/vault.ts";
import { openSecret, sealSecret, SETTINGS_SECRETS, settingsSecretName } from "../vault/secret-columns.ts";
import { assertVaultWritable } from "../vault/writable.ts";
import type { VerbScope } from "../verb.ts";
import { lockSettings } from "./apply.ts";

/** What a client sends back for a secret it was only told is set. */
export const SECRET_MASK = "•••";

export interface Section {
  fields: Record<string, unknown>;
  /** Names of the secrets stored. */
  secrets: Set<string>;
}

export async function readSection(db: Db, section: string): Promise<Section> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, section));
  const names = await db
    .select({ name: serverSecrets.name })
    .from(serverSecrets)
    .where(like(serverSecrets.name, settingsSecretName(section, "%")));
  const prefix = settingsSecretName(section, "");
  const fields = row?.value && typeof row.value === "object" && !Array.isArray(row.value) ? (row.value as Record<string, unknown>) : {};
  return { fields, secrets: new Set(names.map((n) => n.name.slice(prefix.length))) };
}

/** A stored secret in clear, or null when none is stored. */
export async function openSectionSecret(db: Db, vault: Vault, section: string, field: string): Promise<string | null> {
  const name = settingsSecretName(section, field);
  const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name));
  return row ? openSecret(vault, SETTINGS_SECRETS, name, row.value) : null;
}

/** The secrets of a patch that change something: the mask and absence keep the stored value. */
export function secretChanges(patch: Record<string, unknown>, fields: readonly string[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const f of fields) {
    const value = patch[f];
    if (value === undefined || value === SECRET_MASK) continue;
    out[f] = value as string | null;
  }
  return out;
}

/**
 * Takes the vault's guard (when a secret is written) and then the settings lock, in the order a rotation
 * locks. Call first in the verb, before reading the section it changes.
 */
export async function lockSection(s: VerbScope, vault: Vault, secrets: Record<string, string | null>): Promise<void> {
  if (Object.values(secrets).some((v) => v !== null)) await assertVaultWritable(s.tx, vault, s.now);
  await lockSettings(s);
}

/** Writes the plain fields (null: the row removed) and the changed secrets (null: removed). */
export async function writeSection(
  s: VerbScope,
  vault: Vault,
  section: string,
  fields: Record<string, unknown> | null,
  secrets: Record<string, string | null>,
): Promise<void> {
  if (fields === null) await s.tx.delete(appSettings).where(eq(appSettings.key, section));
  else
    await s.tx
      .insert(appSettings)
      .values({ key: section, value: fields, updated_at: s.now })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: fields, updated_at: s.now } });
  for (const [field, secret] of Object.entries(secrets)) {
    const name = settingsSecretName(section, field);
    await s.tx.delete(serverSecrets).where(and(eq(serverSecrets.name, name)));
    if (secret !== null)
      await s.tx.insert(serverSecrets).values({ name, value: await sealSecret(vault, SETTINGS_SECRETS, name, secret), created_at: s.now });
  }
}

/** Removes every secret of a section (a provider switched or cleared). */
export async function dropSectionSecrets(s: VerbScope, section: string): Promise<void> {
  await s.tx.delete(serverSecrets).where(like(serverSecrets.name, settingsSecretName(section, "%")));
}
