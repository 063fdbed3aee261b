// POST /admin/vault/rotate (docs/architecture.md, API contracts). Re-encrypts every stored secret (secret-columns.ts)
// under the new key and moves the canary to it, in one transaction. Every value is opened before anything
// is written: a value that fails its authentication tag (a wrong key, a tampered or misplaced ciphertext)
// refuses the whole rotation, so nothing changes and nothing is written with a key that cannot vouch for
// what it read. Where the new key comes from:
// - SVC_VAULT_KEY: the operator has restarted every process with the new key in it and the old one in
//   SVC_VAULT_KEY_PREVIOUS (the rotation is then pending);
// - the all-in-one's own DATA_DIR/vault.key (deps.vaultKeyFile): the rotation generates the successor,
//   staged beside the key file before the transaction and swapped in after the commit, and the process's
//   vault takes it in place (runtime/vault-key-file.ts, docs/adr/0352).
import { eq } from "drizzle-orm";
import { vaultState } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { VaultStatusShape } from "../../schemas/vault.ts";
import { isCiphertext, Vault, VaultError } from "../../vault/vault.ts";
import type { VaultKeyFile } from "../../vault/key-file.ts";
import { vaultOf, type VerbContext } from "../verb-context.ts";
import { defineVerb, requireScope, type Verb, type VerbArgs } from "../verb.ts";
import { VAULT_STATE_LOCK } from "./initialize.ts";
import { SECRET_COLUMNS, replaceSecret, type StoredSecret, storedSecrets } from "./secret-columns.ts";
import { VAULT_ADMIN, vaultStatusOf } from "./status.ts";
import { CANARY_CONTEXT, CANARY_TEXT, forgetVaultVerification, vaultCondition, vaultNotWritable } from "./writable.ts";

const HOW = "set the new key in SVC_VAULT_KEY and the current one in SVC_VAULT_KEY_PREVIOUS, restart every process, then rotate";

function unreadable(secret: StoredSecret, e: unknown): ApiError {
  const reason = e instanceof VaultError ? e.reason : "error";
  const why =
    reason === "wrong_key"
      ? "fails its authentication tag"
      : reason === "unknown_key"
        ? `was made with key ${Vault.keyIdIn(secret.value)}, which is not loaded`
        : "is not a vault ciphertext";
  return ApiError.conflict(
    `The stored secret ${secret.column.name} of row ${secret.key} ${why}; nothing was re-encrypted and nothing changed.`,
    {
      column: secret.column.name,
      reason,
    },
  );
}

const reencrypt = defineVerb<undefined, VaultStatusShape>({ scope: VAULT_ADMIN }, async (s) => {
  const vault = vaultOf(s.ctx);
  if (!vault.loaded) throw vaultNotWritable("ephemeral");
  await s.tx.execute(VAULT_STATE_LOCK);
  // Locked before any secret is read: a secret write holds this row FOR SHARE (writable.ts), so it either
  // commits before the rotation reads or sees the new key after it.
  const [state] = await s.tx.select().from(vaultState).where(eq(vaultState.id, 1)).for("update");
  if (!state) throw ApiError.conflict(`The vault is not initialized: nothing is stored under a key yet, so there is nothing to rotate.`);
  const condition = await vaultCondition(s.tx, vault);
  if (condition === "healthy")
    throw ApiError.conflict(`No rotation is pending: the stored secrets are already under key ${vault.keyId}. To rotate, ${HOW}.`);
  if (condition !== "rotation_pending")
    throw new ApiError(
      "SERVICE_NOT_READY",
      `The installation's secrets are under key ${state.key_id}, and no key this process holds opens them; nothing was changed. To rotate, ${HOW}.`,
      { health: "vault_degraded" },
      { "Retry-After": "5" },
    );

  // Open everything first (rows locked): one value that does not open refuses the rotation before any write.
  const plan: { secret: StoredSecret; sealed: string }[] = [];
  for (const column of SECRET_COLUMNS) {
    for (const secret of await storedSecrets(s.tx, column, true)) {
      // Clear values are the startup migration's (sidecar/startup/vault-secrets.ts); ours are ciphertexts.
      if (!isCiphertext(secret.value) || Vault.keyIdIn(secret.value) === vault.keyId) continue;
      const context = column.context(String(secret.key));
      let plaintext: string;
      try {
        plaintext = await vault.decrypt(secret.value, context);
      } catch (e) {
        throw unreadable(secret, e);
      }
      plan.push({ secret, sealed: await vault.encrypt(plaintext, context) });
    }
  }
  for (const { secret, sealed } of plan) await replaceSecret(s.tx, secret, sealed);
  await s.tx
    .update(vaultState)
    .set({ key_id: vault.keyId!, canary: await vault.encrypt(CANARY_TEXT, CANARY_CONTEXT), last_rotation_at: s.now })
    .where(eq(vaultState.id, 1));

  const counts: Record<string, number> = {};
  for (const { secret } of plan) counts[secret.column.name] = (counts[secret.column.name] ?? 0) + 1;
  s.audit({
    action: "vault.rotate",
    category: "security",
    level: "warning",
    entity_type: "vault",
    entity_id: vault.keyId!,
    diff: { from_key_id: state.key_id, to_key_id: vault.keyId, re_encrypted: plan.length, columns: counts },
  });
  forgetVaultVerification(vault);
  return vaultStatusOf(s.tx, vault);
});

/** The process's vault is the context's (ctx.vault): swapped to the new key in place when the key file is rotated. */
export interface RotateInput {
  /** Present when the key came from DATA_DIR/vault.key: then a healthy vault is rotated in place. */
  keyFile?: VaultKeyFile;
}

/** The installation's key id as committed, or undefined when the database cannot say. */
async function installedKeyId(ctx: VerbContext): Promise<string | undefined> {
  const rows = await ctx.db
    .select({ key_id: vaultState.key_id })
    .from(vaultState)
    .where(eq(vaultState.id, 1))
    .catch(() => undefined);
  return rows?.[0]?.key_id;
}

/**
 * The file key's successor: staged (0600, synced) before the transaction, renamed over vault.key after
 * its commit. Meanwhile the process's vault also opens the new key's values, so a read between the
 * commit and the swap does not fail on them.
 */
async function rotateKeyFile(ctx: VerbContext, vault: Vault, keyFile: VaultKeyFile): Promise<VaultStatusShape> {
  const staged = await keyFile.stage();
  const before = vault.copy();
  const candidate = await vault.successor(staged.key);
  vault.adopt(await vault.alsoOpening(staged.key));
  let status: VaultStatusShape;
  try {
    status = await reencrypt({ ctx: { ...ctx, vault: candidate } });
  } catch (e) {
    const committed = await installedKeyId(ctx);
    if (committed === candidate.keyId) {
      // The commit went through and only its answer was lost: finish as below, then report the error.
      vault.adopt(candidate);
      forgetVaultVerification(vault);
      await staged.commit();
    } else if (committed !== undefined) {
      vault.adopt(before);
      await staged.discard();
    }
    // Undecided (the database cannot be read): the staged key stays for the next start to settle.
    throw e;
  }
  vault.adopt(candidate);
  forgetVaultVerification(vault);
  await staged.commit();
  return status;
}

export const rotateVault: Verb<RotateInput, VaultStatusShape> = Object.assign(
  async ({ ctx, input }: VerbArgs<RotateInput>) => {
    // Before anything is staged: a caller without the scope leaves no file behind.
    requireScope(ctx, VAULT_ADMIN);
    const vault = vaultOf(ctx);
    const keyFile = input?.keyFile;
    if (keyFile && vault.source === "file" && (await vaultCondition(ctx.db, vault)) === "healthy")
      return rotateKeyFile(ctx, vault, keyFile);
    return reencrypt({ ctx });
  },
  { scope: VAULT_ADMIN },
);
