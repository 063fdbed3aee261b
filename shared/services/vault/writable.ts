// The guard every secret write passes (DESIGN.md 3b "Vault": a wrong key is detected and never used to
// write). The installation records which key id encrypted its canary (vault_state). A process whose key
// opens the canary may write; one whose key does not (a wrong SVC_VAULT_KEY, a key file from another
// installation) is refused before it can store a value nobody else could read. The first secret written
// on a fresh installation records the canary under the key that wrote it.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { vaultState } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { Vault } from "../../vault/vault.ts";

export const CANARY_CONTEXT = "vault_state.canary";
export const CANARY_TEXT = "vault canary";

/** Per Vault instance: the key id whose canary check passed (a key's answer does not change). */
const verified = new WeakMap<Vault, string>();

export type VaultHealth = "healthy" | "ephemeral" | "degraded" | "uninitialized";

/** Whether this process's key opens the installation's canary, without writing anything. */
export async function vaultHealth(db: Db, vault: Vault): Promise<VaultHealth> {
  if (!vault.loaded || !vault.keyId) return "ephemeral";
  const [row] = await db.select().from(vaultState).where(eq(vaultState.id, 1));
  if (!row) return "uninitialized";
  if (row.key_id !== vault.keyId) return "degraded";
  try {
    return (await vault.decrypt(row.canary, CANARY_CONTEXT)) === CANARY_TEXT ? "healthy" : "degraded";
  } catch {
    return "degraded";
  }
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

/** Throws 503 SERVICE_NOT_READY unless this process's key is the installation's (initializing it on first use). */
export async function assertVaultWritable(db: Db, vault: Vault, now: Date = new Date()): Promise<void> {
  if (vault.keyId && verified.get(vault) === vault.keyId) return;
  let health = await vaultHealth(db, vault);
  if (health === "uninitialized") {
    await initializeVaultState(db, vault, now);
    health = await vaultHealth(db, vault);
  }
  if (health !== "healthy")
    throw new ApiError(
      "SERVICE_NOT_READY",
      health === "ephemeral"
        ? "The vault has no key loaded, so no secret can be stored."
        : "The vault key loaded by this process does not open the installation's secrets; nothing secret is written with it. Check SVC_VAULT_KEY.",
      { health: "vault_" + health },
      { "Retry-After": "5" },
    );
  verified.set(vault, vault.keyId!);
}

/** Forgets a verified key (after a rotation changed the installation's key). */
export function forgetVaultVerification(vault: Vault): void {
  verified.delete(vault);
}
