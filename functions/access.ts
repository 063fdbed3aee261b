// Route-level access: public routes pass; before first run only the first-run routes pass, with the
// admin-equivalent grant of spec 5.4 for a caller that presents the setup token in X-Setup-Token (as
// POST /bootstrap/initialize takes it in its body): without it anyone who reaches a fresh install could
// configure it before its operator does (issue 36 item 1). Otherwise a valid credential is required, and the route's
// scope is checked early so a caller without it gets 403 before any validation. The service verb
// checks the scope again: it is the authority.
import type { Context } from "hono";
import { ApiError } from "../shared/errors.ts";
import { FIRST_RUN_ACTOR } from "../shared/identity/resolve.ts";
import { setupTokenMatches } from "../shared/identity/setup-token.ts";
import { actorCan } from "../shared/verbs/actor.ts";
import { recordRefusal } from "../shared/verbs/verb.ts";
import { verbContext } from "./context.ts";
import type { AppEnv } from "./deps.ts";

export const SETUP_TOKEN_HEADER = "x-setup-token";

export function isFirstRunRoute(method: string, path: string): boolean {
  if (path.startsWith("/api/v1/bootstrap/") || path.startsWith("/api/v1/auth/")) return true;
  if (path === "/api/v1/settings" && (method === "GET" || method === "HEAD")) return true;
  return path === "/api/v1/settings/oauth" && method === "PATCH";
}

function unauthorized(detail: string): ApiError {
  return ApiError.unauthorized(detail, {}, { "WWW-Authenticate": 'Bearer realm="api"' });
}

export async function enforceAccess(c: Context<AppEnv>, auth: "public" | "user", scope?: string): Promise<void> {
  if (auth === "public") return;
  const deps = c.get("deps");
  const bootstrapped = await deps.identity.isBootstrapped(c.get("db"), deps.clock.now().getTime());
  if (!bootstrapped) {
    if (!isFirstRunRoute(c.req.method, c.req.path))
      throw unauthorized("First-run set-up is not complete: create the administrator with POST /api/v1/bootstrap/initialize.");
    if (!c.get("actor")) {
      await requireSetupToken(c);
      c.set("actor", FIRST_RUN_ACTOR);
    }
    return;
  }
  const actor = c.get("actor");
  if (!actor) throw unauthorized(c.get("authError") ?? "Authentication required.");
  if (scope && !actorCan(actor, scope)) throw ApiError.forbidden(`This operation needs the ${scope} scope.`);
}

/** The first-run grant's credential: 401 without the setup token, 403 (audited) with a wrong one. */
async function requireSetupToken(c: Context<AppEnv>): Promise<void> {
  const presented = c.req.header(SETUP_TOKEN_HEADER)?.trim();
  if (!presented) throw unauthorized("First-run set-up is not complete: this route needs the setup token in the X-Setup-Token header.");
  if (await setupTokenMatches(c.get("db"), c.get("deps").config.SVC_SETUP_TOKEN, presented)) return;
  await recordRefusal({
    ctx: verbContext(c),
    input: [
      {
        action: "bootstrap.denied",
        category: "security",
        level: "warning",
        diff: { reason: "wrong setup token", route: `${c.req.method} ${c.req.path}` },
      },
    ],
  });
  throw ApiError.forbidden("The setup token is wrong.");
}
