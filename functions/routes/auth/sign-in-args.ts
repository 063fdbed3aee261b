import type { Context } from "hono";
import type { SignInClient } from "../../../shared/verbs/auth/sign-in-client.ts";
import type { VerbContext } from "../../../shared/verbs/verb-context.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";

/**
 * A sign-in verb's arguments: the request's verb context, and the verb's fields plus what the request
 * adds to every sign-in (the key that signs the session, the user agent).
 */
export async function signInArgs<F extends object>(c: Context<AppEnv>, fields: F): Promise<{ ctx: VerbContext; input: F & SignInClient }> {
  const ctx = verbContext(c);
  return {
    ctx,
    input: { ...fields, signingKey: await c.get("deps").identity.signingKey(ctx.db), userAgent: c.req.header("user-agent") ?? null },
  };
}
