// The all-in-one process's own key file (DATA_DIR/vault.key, runtime/vault-key-file.ts), as the rotation
// sees it: web-standard, so the verb stays the same code on Node and the edge (where it is absent).
/** A successor key written beside the current one, durably, not yet the installation's. */
export interface StagedVaultKey {
  /** The new key's 32 bytes. */
  readonly key: Uint8Array;
  /** Makes it the current key (atomic rename over the old file): after the re-encryption committed. */
  commit(): Promise<void>;
  /** Removes it: the re-encryption did not commit, the old key still opens everything. */
  discard(): Promise<void>;
}

export interface VaultKeyFile {
  /** Writes a fresh random key beside the current one (0600, synced); 409 while another one is staged. */
  stage(): Promise<StagedVaultKey>;
}
