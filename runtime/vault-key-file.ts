// Rotating the all-in-one process's own key file in place (POST /admin/vault/rotate, docs/adr/0352).
// The successor is written beside the key as DATA_DIR/vault.key.next (0600, synced) before anything is
// re-encrypted; the re-encryption commits in one transaction; only then is the successor renamed over
// vault.key (atomic) and the directory synced. Whatever instant a crash hits, one of the two files opens
// every secret, and the next start (settleStagedVaultKey) tells which from the installation's canary:
//   - no vault.key.next: nothing was in flight;
//   - the canary is under the next key: the transaction committed, the rename did not: finish it;
//   - the canary is under vault.key (or there is none): it never committed: remove the next key.
import { randomBytes } from "node:crypto";
import { open, readFile, rename, rm } from "node:fs/promises";
import { eq } from "drizzle-orm";
import { bytesToBase64 } from "../shared/auth/encoding.ts";
import { vaultState } from "../shared/db/schema/index.ts";
import type { Deps } from "../shared/deps.ts";
import { ApiError } from "../shared/errors.ts";
import { CANARY_CONTEXT, CANARY_TEXT, forgetVaultVerification } from "../shared/verbs/vault/writable.ts";
import { decodeVaultKey, previousVaultKeys } from "../shared/vault/key-config.ts";
import type { StagedVaultKey, VaultKeyFile } from "../shared/vault/key-file.ts";
import { KEY_BYTES, Vault } from "../shared/vault/vault.ts";
import type { NodeDatabase } from "./database.ts";
import { NEXT_VAULT_KEY_FILE, nextVaultKeyPath, readStagedKey, vaultKeyPath } from "./vault-key.ts";

/** A rename or unlink is durable once the directory itself is synced. */
async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, "r");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

async function commitStaged(dataDir: string): Promise<void> {
  await rename(nextVaultKeyPath(dataDir), vaultKeyPath(dataDir));
  await syncDir(dataDir);
}

async function discardStaged(dataDir: string): Promise<void> {
  await rm(nextVaultKeyPath(dataDir), { force: true });
  await syncDir(dataDir);
}

function staged(dataDir: string, key: Uint8Array): StagedVaultKey {
  return { key, commit: () => commitStaged(dataDir), discard: () => discardStaged(dataDir) };
}

/** DATA_DIR/vault.key's successor, staged as vault.key.next. */
export function nodeVaultKeyFile(dataDir: string): VaultKeyFile {
  return {
    async stage() {
      const key = new Uint8Array(randomBytes(KEY_BYTES));
      const path = nextVaultKeyPath(dataDir);
      // Exclusive: a second rotation (or the leftover of a crashed one) is refused, never overwritten.
      const fh = await open(path, "wx", 0o600).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== "EEXIST") throw e;
        throw ApiError.conflict(
          `A vault key rotation is already in progress (${NEXT_VAULT_KEY_FILE} exists in DATA_DIR); nothing was changed. If none is running, restart the server: the start settles the interrupted one.`,
        );
      });
      try {
        await fh.writeFile(`${bytesToBase64(key)}\n`);
        await fh.sync();
      } catch (e) {
        await fh.close();
        await rm(path, { force: true });
        throw e;
      }
      await fh.close();
      await syncDir(dataDir);
      return staged(dataDir, key);
    },
  };
}

export type SettledRotation = "none" | "finished" | "rolled_back" | "undecided";

/**
 * On start, after the migrations and before anything is written with the vault: finishes or rolls back
 * a file-key rotation a crash interrupted (the module comment), and swaps the process's vault to match.
 */
export async function settleStagedVaultKey({ deps, database }: { deps: Deps; database: NodeDatabase }): Promise<SettledRotation> {
  const { vault, logger, config } = deps;
  if (!deps.vaultKeyFile) return "none";
  const dataDir = config.DATA_DIR;
  const next = await readStagedKey(dataDir);
  if (next === undefined) return "none";
  const [state] = await database.db.select().from(vaultState).where(eq(vaultState.id, 1));
  const nextVault = next ? await Vault.open("file", next) : undefined;
  const nextOpens =
    nextVault !== undefined &&
    state !== undefined &&
    state.key_id === nextVault.keyId &&
    (await nextVault.decrypt(state.canary, CANARY_CONTEXT).then(
      (t) => t === CANARY_TEXT,
      () => false,
    ));
  if (nextOpens) {
    vault.adopt(await vault.successor(next!));
    forgetVaultVerification(vault);
    await commitStaged(dataDir);
    logger.warn("finished an interrupted vault key rotation: the secrets were re-encrypted, vault.key now holds the new key", {
      key_id: vault.keyId,
    });
    return "finished";
  }
  if (!state || state.key_id === vault.keyId) {
    await discardStaged(dataDir);
    // The staged key was only ever a decrypt-only extra (vault-key.ts): drop it too.
    const current = decodeVaultKey(await readFile(vaultKeyPath(dataDir), "utf8"), vaultKeyPath(dataDir));
    vault.adopt(await Vault.open("file", current, previousVaultKeys(config)));
    logger.warn("rolled back an interrupted vault key rotation: nothing had been re-encrypted, vault.key is unchanged", {
      key_id: vault.keyId,
    });
    return "rolled_back";
  }
  logger.error(
    "vault.key.next is left from an interrupted rotation, but neither it nor vault.key opens the stored secrets; both files were kept",
    {
      installation_key_id: state.key_id,
    },
  );
  return "undecided";
}
