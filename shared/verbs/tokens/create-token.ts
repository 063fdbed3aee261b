// POST /auth/api-token: any signed-in user mints a token for themself, never wider than the credential
// they are using (docs/architecture.md, API contracts); through an API token, only with write:tokens and never
// outliving that token, which becomes its parent (lineage.ts).
import { defineVerb } from "../verb.ts";
import { type ExpiryInput, resolveExpiry } from "./expiry.ts";
import { requireGrantor, scopesToGrant } from "./grant.ts";
import { insertToken, type NewToken } from "./insert-token.ts";
import { childExpiry, lockCallerToken } from "./lineage.ts";
import type { IssuedToken } from "./token-view.ts";

export interface CreateTokenInput extends ExpiryInput {
  label: string;
  scopes?: string[] | undefined;
}

export const createApiToken = defineVerb<CreateTokenInput, IssuedToken, Omit<NewToken, "parentTokenId">>(
  {
    scope: requireGrantor,
    prepare: async (ctx, input) => {
      const actor = requireGrantor(ctx);
      const scopes = scopesToGrant(actor, input.scopes);
      return {
        userId: actor.userId,
        label: input.label,
        scopes,
        expiresAt: resolveExpiry(input, ctx.clock.now()),
        createdBy: actor.userId,
      };
    },
  },
  async (s, input, token) => {
    const parent = await lockCallerToken(s);
    return insertToken(s, { ...token, expiresAt: childExpiry(parent, token.expiresAt, input), parentTokenId: parent?.id ?? null });
  },
);
