// What a caller may hand out (spec 5.1-5.2): a credential never mints anything wider than itself, i.e. the
// user's role scopes and, when the caller is itself an API token, that token's scopes too.
import { MINT_TOKENS_SCOPE, scopeAllows } from "../../auth/scopes.ts";
import { ApiError } from "../../errors.ts";
import type { Actor } from "../actor.ts";
import type { VerbContext } from "../verb-context.ts";
import { grantableScopes } from "../roles/grantable-scopes.ts";

export type UserActor = Actor & { userId: number };

/** Any real credential: the first-run grant (spec 5.4) reaches /auth/* but manages no tokens. */
export function requireCredential(ctx: VerbContext): Actor {
  const actor = ctx.actor;
  if (!actor) throw ApiError.unauthorized("Authentication required.");
  if (actor.kind === "first_run") throw ApiError.forbidden("First-run set-up is not complete: create the administrator first.");
  return actor;
}

/** The signed-in user behind the request: tokens belong to a user, so the legacy and first-run grants have none. */
export function requireUser(ctx: VerbContext): UserActor {
  const actor = requireCredential(ctx);
  if (actor.userId == null) throw ApiError.forbidden("API tokens belong to a user account: sign in as a user to manage them.");
  return actor as UserActor;
}

/**
 * A user who may mint a new credential: not while masquerading, since the credential would outlive the
 * masquerade, and through an API token only when that token was given write:tokens (a read-only token
 * must not copy itself).
 */
export function requireGrantor(ctx: VerbContext): UserActor {
  const actor = requireUser(ctx);
  if (actor.masqueradeBy != null) throw ApiError.forbidden("Credentials cannot be created while masquerading as another user.");
  if (actor.tokenScopes && !scopeAllows(actor.tokenScopes, MINT_TOKENS_SCOPE))
    throw ApiError.forbidden(`An API token can create or rotate API tokens only with the ${MINT_TOKENS_SCOPE} scope.`);
  return actor;
}

/** Every user may mint tokens for themself (with a session), so write:tokens is within every role. */
export function scopesWithinRole(scopes: readonly string[], roleScopes: readonly string[]): boolean {
  return scopes.every((scope) => scope === MINT_TOKENS_SCOPE || scopeAllows(roleScopes, scope));
}

/** 403 naming the first scope the caller's own credential does not cover. */
export function requireWithinGrant(actor: Actor, scopes: readonly string[]): void {
  for (const scope of scopes) {
    if (!scopesWithinRole([scope], actor.roleScopes))
      throw ApiError.forbidden(`You cannot grant ${scope}: it is wider than the scopes of your role (${actor.role}).`);
    if (actor.tokenScopes && !scopeAllows(actor.tokenScopes, scope))
      throw ApiError.forbidden(`You cannot grant ${scope}: it is wider than the scopes of the API token you are using.`);
  }
}

/** The scopes a new token gets when none are asked for: everything the caller's credential has. */
export function defaultGrant(actor: Actor): string[] {
  const token = actor.tokenScopes;
  if (!token) return [...actor.roleScopes];
  const both = [...actor.roleScopes.filter((s) => scopeAllows(token, s)), ...token.filter((s) => scopesWithinRole([s], actor.roleScopes))];
  return [...new Set(both)];
}

/** The scopes asked for (each grantable) or else `fallback`; either way within the caller's grant. */
export function scopesToGrant(actor: Actor, requested: string[] | undefined, fallback: string[] = defaultGrant(actor)): string[] {
  const scopes = requested ? grantableScopes(requested) : fallback;
  if (scopes.length === 0) throw ApiError.forbidden("Your credential has no scopes to grant.");
  requireWithinGrant(actor, scopes);
  return scopes;
}
