import type { Context } from "hono";
import type { VerbContext } from "../shared/verbs/verb-context.ts";
import type { AppEnv } from "./deps.ts";

/** The verb context of this request (who acts, from where, with which database and clock), for handing to a verb. */
export function verbContext(c: Context<AppEnv>): VerbContext {
  const deps = c.get("deps");
  const ip = c.get("clientIp");
  return {
    db: c.get("db"),
    clock: deps.clock,
    random: deps.random,
    actor: c.get("actor"),
    ip: ip && ip !== "unknown" ? ip : null,
    requestId: c.get("requestId"),
    credentialCache: deps.credentialCache,
    resolveHost: deps.resolveHost,
    vault: deps.vault,
    outbound: deps.outbound,
  };
}
