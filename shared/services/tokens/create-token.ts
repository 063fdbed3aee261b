// POST /auth/api-token: any signed-in user mints a token for themself, never wider than the credential
// they are using (DESIGN.md 3 "API tokens").
import type { VerbContext } from "../verb-context.ts";
import { runInTransaction } from "../verb.ts";
import { type ExpiryInput, resolveExpiry } from "./expiry.ts";
import { requireGrantor, scopesToGrant } from "./grant.ts";
import { insertToken } from "./insert-token.ts";
import type { IssuedToken } from "./token-view.ts";

export interface CreateTokenInput extends ExpiryInput {
  label: string;
  scopes?: string[] | undefined;
}

export async function createApiToken({ ctx, input }: { ctx: VerbContext; input: CreateTokenInput }): Promise<IssuedToken> {
  const actor = requireGrantor(ctx);
  const scopes = scopesToGrant(actor, input.scopes);
  const expiresAt = resolveExpiry(input, ctx.clock.now());
  return runInTransaction(ctx, {}, (s) =>
    insertToken(s, { userId: actor.userId, label: input.label, scopes, expiresAt, createdBy: actor.userId }),
  );
}
