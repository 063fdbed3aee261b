// POST /auth/vault-reset (spec 7.3: recovery through the vault key). Whoever holds the installation's vault
// key already holds every secret it stores, so proving possession of it (compared in constant time) may
// reset an administrator's password when no administrator can sign in. Every mismatch (unknown or inactive
// user, not an administrator, a wrong or malformed key) is the same 401 and is audited; the caller is
// rate-limited as a sign-in (spec 8.1 "auth"). Success sets the password, clears the lockout and any
// forced change, revokes the user's other sessions and signs the caller in.
import { base64ToBytes } from "../../auth/encoding.ts";
import { ApiError } from "../../errors.ts";
import { KEY_BYTES, type Vault } from "../../vault/vault.ts";
import { newPasswordHash } from "../account/new-password.ts";
import { lockUser } from "../admin-users/user-rows.ts";
import { findUserByEmail, type SessionOutcome, completeLogin } from "../auth/login.ts";
import { replacePassword } from "../auth/sessions.ts";
import type { SignInClient } from "../auth/sign-in-client.ts";
import { defineVerb, recordRefusal } from "../verb.ts";
import { vaultOf } from "../verb-context.ts";

export const VAULT_RESET_REFUSED = "Unable to reset password with the provided recovery credentials";

export type VaultResetInput = { email: string; vault_key: string; new_password?: unknown; new_password_hash?: unknown } & SignInClient;

/** Exactly one new password, in clear (the server hashes it): a 422 that never echoes the body (it holds the key). */
function newPasswordOf(input: VaultResetInput): string {
  const issue = (field: string, msg: string) => ApiError.validation([{ loc: ["body", field], msg, type: "value_error" }]);
  if (input.new_password_hash !== undefined)
    throw issue("new_password_hash", "new_password_hash is not accepted: send new_password; the server hashes it.");
  if (typeof input.new_password !== "string" || input.new_password === "") throw issue("new_password", "new_password is required.");
  if (input.new_password.length > 1024) throw issue("new_password", "new_password is at most 1024 characters.");
  return input.new_password;
}

type Refusal = "wrong_key" | "unknown_user" | "inactive" | "not_admin";

/** Whether `text` is the vault key. A malformed one is still compared (as zeros), so it takes the same time, and never matches. */
function holdsKey(vault: Vault, text: string): boolean {
  const bytes = base64ToBytes(text.trim());
  const wellFormed = bytes !== null && bytes.length === KEY_BYTES;
  const matches = vault.holds(wellFormed ? bytes : new Uint8Array(KEY_BYTES));
  return wellFormed && matches;
}

export const vaultResetPassword = defineVerb<VaultResetInput, SessionOutcome, { userId: number; password_hash: string }>(
  {
    scope: "public",
    // The key and the account are checked (and a refusal audited) before the transaction; then the slow hash.
    prepare: async (ctx, input) => {
      const newPassword = newPasswordOf(input);
      // Both checks always run, so the answer's timing does not tell a wrong key from an unknown account.
      const keyHeld = holdsKey(vaultOf(ctx), input.vault_key);
      const user = await findUserByEmail(ctx, input.email.trim());
      const refusal: Refusal | null = !keyHeld
        ? "wrong_key"
        : !user
          ? "unknown_user"
          : !user.is_active || user.is_service_account
            ? "inactive"
            : user.role !== "admin"
              ? "not_admin"
              : null;
      if (refusal || !user) {
        // The key is never recorded, not even in part; the e-mail says whose recovery was tried.
        const entry = {
          action: "auth.vault_reset_failed",
          category: "security",
          level: "warning",
          entity_type: "user",
          entity_id: user?.id ?? null,
          diff: { email: input.email.slice(0, 254), reason: refusal },
        } as const;
        await recordRefusal({ ctx, input: [entry] });
        throw ApiError.unauthorized(VAULT_RESET_REFUSED);
      }
      return { userId: user.id, password_hash: await newPasswordHash(user, newPassword, "new_password") };
    },
  },
  async (s, input, { userId, password_hash }) => {
    const locked = await lockUser(s.tx, userId);
    const revoked = await replacePassword(s, locked.id, password_hash);
    s.audit({
      action: "password.vault_reset",
      category: "security",
      level: "warning",
      entity_type: "user",
      entity_id: locked.id,
      diff: { unlocked: locked.locked_until !== null && locked.locked_until > s.now, revoked_sessions: revoked },
    });
    return completeLogin(s, input, { ...locked, must_change_password: false }, "login.vault_reset");
  },
);
