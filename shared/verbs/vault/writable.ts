// The guard every secret write passes (docs/architecture.md, API contracts: a wrong key is detected and never used to
// write). The installation records which key id encrypted its canary (vault_state). A process whose key
// opens the canary may write; one whose key does not (a wrong SVC_VAULT_KEY, a key file from another
// installation) is refused before it can store a value nobody else could read. The first secret written
// on a fresh installation records the canary under the key that wrote it.
//
// A rotation (POST /admin/vault/rotate) starts with the operator's restart: the new key in SVC_VAULT_KEY,
// the old one in SVC_VAULT_KEY_PREVIOUS. Until the rotation re-encrypts the stored secrets, the canary
// still names the old key, which this process holds only to decrypt: that is "rotation pending", not a
// wrong key. Secrets still open, but nothing new is written until the rotation has made the new key the
// installation's (a value written under a key the installation has not adopted is what this guard prevents).
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { vaultState } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { Vault } from "../../vault/vault.ts";

export const CANARY_CONTEXT = "vault_state.canary";
export const CANARY_TEXT = "vault canary";

/** Per Vault instance: the key id whose canary opened (checked again only when the installation's key changes). */
const verified = new WeakMap<Vault, string>();

export type VaultHealth = "healthy" | "ephemeral" | "degraded" | "uninitialized";
/** What the vault's own routes tell apart: a pending rotation, which other callers see as degraded. */
export type VaultCondition = VaultHealth | "rotation_pending";

/** This process's key against the installation's canary, without writing anything. */
export async function vaultCondition(db: Db, vault: Vault): Promise<VaultCondition> {
  if (!vault.loaded || !vault.keyId) return "ephemeral";
  const [row] = await db.select().from(vaultState).where(eq(vaultState.id, 1));
  if (!row) return "uninitialized";
  // The canary names its key; the row must agree (a canary copied in from elsewhere fails either way).
  if (Vault.keyIdIn(row.canary) !== row.key_id) return "degraded";
  const opens = await vault.decrypt(row.canary, CANARY_CONTEXT).then(
    (text) => text === CANARY_TEXT,
    () => false,
  );
  if (!opens) return "degraded";
  return row.key_id === vault.keyId ? "healthy" : "rotation_pending";
}

/** Whether this process's key opens the installation's canary (a pending rotation is not writable: degraded). */
export async function vaultHealth(db: Db, vault: Vault): Promise<VaultHealth> {
  const condition = await vaultCondition(db, vault);
  return condition === "rotation_pending" ? "degraded" : condition;
}

/** Records the canary under this key when the installation has none yet; true when it did. */
export async function initializeVaultState(db: Db, vault: Vault, now: Date): Promise<boolean> {
  const canary = await vault.encrypt(CANARY_TEXT, CANARY_CONTEXT);
  const inserted = await db
    .insert(vaultState)
    .values({ id: 1, key_id: vault.keyId!, canary, initialized_at: now })
    .onConflictDoNothing()
    .returning({ id: vaultState.id });
  return inserted.length > 0;
}

/**
 * Throws 503 SERVICE_NOT_READY unless this process's key is the installation's (initializing it on first
 * use). Called in the writing transaction: the state row is read FOR SHARE every time, so a rotation
 * (which locks it FOR UPDATE first) waits for this write and re-encrypts it, and a process still on the
 * old key is refused once the rotation has committed. Only the canary's decryption is cached.
 */
export async function assertVaultWritable(db: Db, vault: Vault, now: Date = new Date()): Promise<void> {
  const [state] = await db.select({ key_id: vaultState.key_id }).from(vaultState).where(eq(vaultState.id, 1)).for("share");
  if (vault.keyId && state?.key_id === vault.keyId && verified.get(vault) === vault.keyId) return;
  let condition = await vaultCondition(db, vault);
  if (condition === "uninitialized") {
    await initializeVaultState(db, vault, now);
    condition = await vaultCondition(db, vault);
  }
  if (condition !== "healthy") throw vaultNotWritable(condition);
  verified.set(vault, vault.keyId!);
}

const NOT_WRITABLE: Record<Exclude<VaultCondition, "healthy">, string> = {
  ephemeral: "The vault has no key loaded, so no secret can be stored.",
  uninitialized: "The vault is not initialized: POST /api/v1/admin/vault/initialize.",
  degraded:
    "The vault key loaded by this process does not open the installation's secrets; nothing secret is written with it. Check SVC_VAULT_KEY.",
  rotation_pending:
    "A vault key rotation is pending: POST /api/v1/admin/vault/rotate re-encrypts the stored secrets under the new key; until then nothing secret is written.",
};

/** The 503 of a vault that may not write now, naming its condition in `health` (spec 7.3). */
export function vaultNotWritable(condition: Exclude<VaultCondition, "healthy">): ApiError {
  return new ApiError("SERVICE_NOT_READY", NOT_WRITABLE[condition], { health: `vault_${condition}` }, { "Retry-After": "5" });
}

/** Forgets a verified key (after a rotation changed the installation's key). */
export function forgetVaultVerification(vault: Vault): void {
  verified.delete(vault);
}
