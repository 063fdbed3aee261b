import type { Context } from "hono";
import type { ServiceContext } from "../shared/services/context.ts";
import type { AppEnv } from "./deps.ts";

/** The service context of this request, for handing to a verb. */
export function serviceContext(c: Context<AppEnv>): ServiceContext {
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
  };
}
