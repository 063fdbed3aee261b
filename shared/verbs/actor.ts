import { scopeAllows } from "../auth/scopes.ts";

// Who is acting, as every service verb sees it. All three credential types (session cookie, bearer
// JWT, API token) resolve to a user; an API token narrows that user's scopes further.

export interface Actor {
  userId: number | null;
  email: string | null;
  role: string;
  /** Scopes of the user's role at the time of the request. */
  roleScopes: string[];
  /** For an API token, the token's own scopes; a request must be allowed by both sets. */
  tokenScopes?: string[];
  kind: "session" | "api_token" | "legacy_token" | "first_run" | "system";
  sessionId?: string;
  tokenId?: number;
  /** The administrator behind a masquerade session. */
  masqueradeBy?: number;
}

export function actorCan(actor: Actor, scope: string): boolean {
  if (!scopeAllows(actor.roleScopes, scope)) return false;
  return actor.tokenScopes ? scopeAllows(actor.tokenScopes, scope) : true;
}

/**
 * The system itself, for work nobody requested (the scheduler's jobs, the status worker, the pollers):
 * it holds every scope, has no user, and its audit entries say role "system". Distinct from an anonymous
 * caller, which has no actor at all.
 */
export const SYSTEM_ACTOR: Actor = Object.freeze({ userId: null, email: null, role: "system", roleScopes: ["*:*"], kind: "system" });
