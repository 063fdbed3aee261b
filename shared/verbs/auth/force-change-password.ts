// POST /auth/force-change-password: a user whose password must change signs in with the short-lived
// password-change token from /auth/login plus the new password. The flag it clears makes the token single-use.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { AUDIENCE, verifyToken } from "../../identity/tokens.ts";
import { newPasswordHash } from "../account/new-password.ts";
import { lockUser } from "../admin-users/user-rows.ts";
import { defineVerb, recordRefusal } from "../verb.ts";
import { completeLogin, type SessionOutcome } from "./login.ts";
import { replacePassword } from "./sessions.ts";
import type { SignInClient } from "./sign-in-client.ts";

const REFUSED = "The password-change token is invalid, expired or already used; sign in again.";

export type ForceChangeInput = { change_token: string; new_password: string } & SignInClient;

export const forceChangePassword = defineVerb<ForceChangeInput, SessionOutcome, { userId: number; password_hash: string }>(
  {
    scope: "public",
    // The token, then the slow hash of the new password, before the transaction.
    prepare: async (ctx, input) => {
      const claims = await verifyToken(input.signingKey, AUDIENCE.passwordChange, input.change_token, ctx.clock.now());
      const [user] = claims ? await ctx.db.select().from(users).where(eq(users.id, claims.userId)) : [];
      if (!user?.is_active || !user.must_change_password) {
        const entry = {
          action: "password.change_failed",
          category: "security",
          level: "warning",
          entity_type: "user",
          entity_id: claims?.userId ?? null,
          diff: { reason: "invalid change token" },
        } as const;
        await recordRefusal({ ctx, input: [entry] });
        throw ApiError.unauthorized(REFUSED);
      }
      return { userId: user.id, password_hash: await newPasswordHash(user, input.new_password, "new_password") };
    },
  },
  async (s, input, { userId, password_hash }) => {
    const locked = await lockUser(s.tx, userId);
    // A concurrent request with the same token got here first.
    if (!locked.must_change_password) return s.refuse(ApiError.unauthorized(REFUSED));
    const revoked = await replacePassword(s, locked.id, password_hash);
    s.audit({
      action: "password.changed",
      category: "security",
      entity_type: "user",
      entity_id: locked.id,
      diff: { forced: true, before: { must_change_password: true }, after: { must_change_password: false }, revoked_sessions: revoked },
    });
    return completeLogin(s, input, locked);
  },
);
