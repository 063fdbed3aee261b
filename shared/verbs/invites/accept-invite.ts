// POST /auth/accept-invite (public): turns an open invite into an account with the invite's role and signs
// the new user in. Unknown, expired, used and revoked tokens all get the same 401 after the same work (the
// hash check runs against a decoy when no invite matches); the real reason goes to the audit log only.
import { eq } from "drizzle-orm";
import { hashApiToken, INVITE_TOKEN_WORD, parseApiToken, verifyApiToken } from "../../auth/api-token.ts";
import { hashPassword, validatePasswordPolicy } from "../../auth/password.ts";
import { invites, users } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { assertEmailFree, rethrowEmailTaken } from "../admin-users/user-rows.ts";
import { completeLogin, type SessionOutcome } from "../auth/login.ts";
import { passwordProblems } from "../auth/password-problems.ts";
import type { SignInClient } from "../auth/sign-in-client.ts";
import type { VerbContext } from "../verb-context.ts";
import { defineVerb, recordRefusal } from "../verb.ts";
import { type InviteRow, inviteStatus, lockInvite } from "./invite-rows.ts";

export type AcceptInviteInput = {
  token: string;
  password: string;
  display_name?: string | null | undefined;
} & SignInClient;

const INVALID = "The invite is invalid or has expired.";
// Made on first use: workerd forbids randomness at module scope.
let decoy: string | undefined;

function invalid(): ApiError {
  return ApiError.unauthorized(INVALID);
}

/** The invite this token opens, or why it opens none. */
export async function openInvite(
  ctx: VerbContext,
  token: string,
): Promise<{ invite: InviteRow } | { reason: string; inviteId: number | null }> {
  const parsed = parseApiToken(token, INVITE_TOKEN_WORD);
  const [row] = parsed ? await ctx.db.select().from(invites).where(eq(invites.prefix, parsed.prefix)) : [];
  const matches = verifyApiToken(token, row?.token_hash ?? (decoy ??= hashApiToken(`${INVITE_TOKEN_WORD}_decoy`)));
  if (!row || !matches) return { reason: "unknown token", inviteId: null };
  const status = inviteStatus(row, ctx.clock.now());
  return status === "pending" ? { invite: row } : { reason: status, inviteId: row.id };
}

export const acceptInvite = defineVerb<AcceptInviteInput, SessionOutcome, { inviteId: number; password_hash: string }>(
  {
    scope: "public",
    // The token (audited when it opens nothing), the policy and the slow hash, before the transaction.
    prepare: async (ctx, input) => {
      const opened = await openInvite(ctx, input.token);
      if ("reason" in opened) {
        const entry = {
          action: "invite.accept_failed",
          category: "security",
          level: "warning",
          entity_type: "invite",
          entity_id: opened.inviteId,
          diff: { reason: opened.reason },
        } as const;
        await recordRefusal({ ctx, input: [entry] });
        throw invalid();
      }
      passwordProblems(validatePasswordPolicy(input.password, opened.invite.email));
      return { inviteId: opened.invite.id, password_hash: await hashPassword(input.password) };
    },
  },
  async (s, input, { inviteId, password_hash }) => {
    // Re-read under the row lock: of two racing accepts, the second finds the invite used.
    const locked = await lockInvite(s.tx, inviteId);
    if (inviteStatus(locked, s.now) !== "pending") throw invalid();
    await assertEmailFree(s.tx, locked.email);
    const [user] = await s.tx
      .insert(users)
      .values({
        email: locked.email,
        role: locked.role,
        display_name: input.display_name ?? null,
        password_hash,
        created_at: s.now,
        updated_at: s.now,
      })
      .returning()
      .catch(rethrowEmailTaken(locked.email));
    await s.tx.update(invites).set({ accepted_at: s.now }).where(eq(invites.id, locked.id));
    s.audit({
      action: "invite.accepted",
      category: "security",
      entity_type: "invite",
      entity_id: locked.id,
      diff: { user_id: user!.id, email: locked.email, role: locked.role },
    });
    return completeLogin(s, input, user!, "login.invite");
  },
);
