// [vault] request and response shapes (docs/architecture.md, API contracts, spec/catalogue.tsv, group vault and
// "auth/vault-reset"). The raw key is never part of an answer.
import * as v from "valibot";

export const VaultStatus = v.object({
  status: v.picklist(["healthy", "ephemeral", "degraded"]),
  key_source: v.picklist(["environment", "file", "none"]),
  encrypted_secrets: v.number(),
  last_rotation: v.nullable(v.string()),
  /** Ours: whether the installation has recorded its key (its canary) yet. */
  initialized: v.boolean(),
  /** Ours: a new key is loaded and the stored secrets wait for POST /admin/vault/rotate (status degraded meanwhile). */
  rotation_pending: v.boolean(),
  /** Ours: the id of this process's key (a hash prefix that names the key and reveals nothing of it). */
  key_id: v.nullable(v.string()),
});
export type VaultStatusShape = v.InferOutput<typeof VaultStatus>;

export const VaultTestResult = v.object({ ok: v.boolean(), message: v.string() });

// Anything about who or which key stays a string here: a malformed e-mail or key is the same uniform
// 401 as a wrong one (spec/catalogue.tsv), never a 422 that tells them apart. Which password field was
// sent is checked by vaultResetPassword (newPasswordOf), not here: a schema failure echoes the
// request body in its 422 (spec 7.1), and this body carries the vault key.
const Bounded = (max: number) => v.pipe(v.string(), v.maxLength(max));

export const VaultResetBody = v.object({
  email: Bounded(254),
  /** The installation's vault key, base64 of 32 bytes, exactly as in SVC_VAULT_KEY. */
  vault_key: Bounded(128),
  new_password: v.optional(v.unknown()),
  /** The original's alternative; refused here (422): a ready-made hash would skip the password policy. */
  new_password_hash: v.optional(v.unknown()),
});
