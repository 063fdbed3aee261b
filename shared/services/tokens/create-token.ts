// POST /auth/api-token: any signed-in user mints a token for themself, never wider than the credential
// they are using (DESIGN.md 3 "API tokens").
import { defineVerb } from "../verb.ts";
import { type ExpiryInput, resolveExpiry } from "./expiry.ts";
import { requireGrantor, scopesToGrant } from "./grant.ts";
import { insertToken, type NewToken } from "./insert-token.ts";
import type { IssuedToken } from "./token-view.ts";

export interface CreateTokenInput extends ExpiryInput {
  label: string;
  scopes?: string[] | undefined;
}

export const createApiToken = defineVerb<CreateTokenInput, IssuedToken, NewToken>(
  {
    scope: requireGrantor,
    prepare: async (ctx, input) => {
      const actor = requireGrantor(ctx);
      const scopes = scopesToGrant(actor, input.scopes);
      return { userId: actor.userId, label: input.label, scopes, expiresAt: resolveExpiry(input, ctx.clock.now()), createdBy: actor.userId };
    },
  },
  async (s, _input, token) => insertToken(s, token),
);
