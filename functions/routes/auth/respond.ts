import type { Context } from "hono";
import type { LoginOutcome } from "../../../shared/verbs/auth/login.ts";
import type { AppEnv } from "../../deps.ts";
import { setSessionCookies } from "../../session-cookies.ts";

/** Answers a sign-in outcome the way every login-like route does (docs/architecture.md, API contracts). */
export function respondLogin(c: Context<AppEnv>, outcome: LoginOutcome): Response {
  if (outcome.kind === "mfa") return c.json({ requires_mfa: true, mfa_token: outcome.mfa_token });
  if (outcome.kind === "change") return c.json({ requires_change: true, change_token: outcome.change_token });
  setSessionCookies(c, outcome.session);
  return c.json({ token: outcome.session.token, user: outcome.user, csrf_token: outcome.session.csrfToken });
}
