// What the CLI's browser sign-in asks for (docs/adr/0504), as the console hands it on from the URL the
// CLI opened: who asks, where the answer goes, and the PKCE challenge. Checked the same way by the
// approval and the denial, so neither redirects anywhere but to a loopback address.
import { loopbackRedirectProblem, redirectWith } from "../../auth/loopback-redirect.ts";
import { ApiError } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";
import { requireGrantor, requireUser, type UserActor } from "../tokens/grant.ts";

export interface CliLoginRequest {
  redirect_uri: string;
  state: string;
  client_name: string;
}

/** The redirect URI, refused (422) unless it is a loopback one. */
export function checkedRedirect(input: CliLoginRequest): string {
  const problem = loopbackRedirectProblem(input.redirect_uri);
  if (problem) throw ApiError.validation([{ loc: ["body", "redirect_uri"], msg: problem, type: "loopback_redirect" }]);
  return input.redirect_uri;
}

/** The browser's way back to the CLI with `params` and the CLI's own state. */
export function answerTo(input: CliLoginRequest, params: Record<string, string>): { redirect_to: string } {
  return { redirect_to: redirectWith(checkedRedirect(input), { ...params, state: input.state }) };
}

/** The host and port the answer went to, for the audit entry (the path says nothing). */
export const listenerOf = (redirectUri: string): string => new URL(redirectUri).host;

/**
 * Only a person in the console decides: a session, not an API token (which could approve itself a
 * wider copy without anyone seeing a page).
 */
export function requireConsoleUser(ctx: VerbContext): UserActor {
  const actor = requireUser(ctx);
  if (actor.kind !== "session") throw ApiError.forbidden("A CLI sign-in is approved or denied in the console, with a signed-in session.");
  return actor;
}

/** Approving mints a credential: the session rules of POST /auth/api-token (no masquerade) as well. */
export function requireConsoleGrantor(ctx: VerbContext): UserActor {
  requireConsoleUser(ctx);
  return requireGrantor(ctx);
}
