import type { Context } from "hono";
import type * as v from "valibot";
import type { ChangeChallenge, LoginResponse, MfaChallenge, SessionResponse } from "../../../shared/schemas/auth.ts";
import type { LoginOutcome, SessionOutcome } from "../../../shared/verbs/auth/login.ts";
import type { AppEnv } from "../../deps.ts";
import { setSessionCookies } from "../../session-cookies.ts";

/**
 * A new session as every login-like route answers it (docs/architecture.md, API contracts): sets the
 * session cookies and gives the body for the route's typed `reply`.
 */
export function sessionAnswer(c: Context<AppEnv>, outcome: SessionOutcome): v.InferInput<typeof SessionResponse> {
  setSessionCookies(c, outcome.session);
  return { token: outcome.session.token, user: outcome.user, csrf_token: outcome.session.csrfToken };
}

/** A sign-in that needs one more step, MFA or a password change: the challenge, no cookies. */
export function challengeAnswer(
  outcome: Exclude<LoginOutcome, SessionOutcome>,
): v.InferInput<typeof MfaChallenge> | v.InferInput<typeof ChangeChallenge> {
  if (outcome.kind === "mfa") return { requires_mfa: true, mfa_token: outcome.mfa_token };
  return { requires_change: true, change_token: outcome.change_token };
}

/** A sign-in outcome: the session, or the challenge of its next step. */
export function loginAnswer(c: Context<AppEnv>, outcome: LoginOutcome): v.InferInput<typeof LoginResponse> {
  return outcome.kind === "session" ? sessionAnswer(c, outcome) : challengeAnswer(outcome);
}
