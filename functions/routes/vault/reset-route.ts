// [auth] POST /auth/vault-reset: an administrator's password reset by whoever proves possession of the
// vault key (shared/verbs/vault/reset-password.ts). Public, CSRF-exempt, rate-limited as a sign-in.
import type { Hono } from "hono";
import { VaultResetBody } from "../../../shared/schemas/vault.ts";
import { vaultResetPassword } from "../../../shared/verbs/vault/reset-password.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { SessionResponse } from "../../../shared/schemas/auth.ts";
import { sessionAnswer } from "../auth/respond.ts";
import { signInArgs } from "../auth/sign-in-args.ts";

export function vaultResetRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/vault-reset",
      tag: "auth",
      auth: "public",
      summary: "Reset an administrator's password with the vault key, then sign in",
      description:
        "`vault_key` is the installation's key as in SVC_VAULT_KEY (base64 of 32 bytes). Any mismatch (e-mail, key, not an active administrator) " +
        "is the same 401. `new_password` is required (`new_password_hash` is refused: the server hashes and checks the password). " +
        "The user's other sessions are revoked, a lockout and a forced password change are cleared.",
      body: VaultResetBody,
      response: { schema: SessionResponse },
      errors: [401],
    },
    async (c, { body, reply }) => reply(sessionAnswer(c, await vaultResetPassword(await signInArgs(c, { ...body })))),
  );
}
