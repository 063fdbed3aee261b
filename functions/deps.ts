// What the app gets from its process: the process's deps (shared/deps.ts) plus the one thing only an
// HTTP app asks for, the socket peer of a request; and the Hono context variables of a request.
import type { Context } from "hono";
import type { Deps as ProcessDeps } from "../shared/deps.ts";
import type { VerbContext } from "../shared/verbs/verb-context.ts";
import type { Bucket } from "../shared/ratelimit/bucket.ts";
import type { RateLimitDecision } from "../shared/ratelimit/limiter.ts";
import type { Actor } from "../shared/verbs/actor.ts";

export interface Deps extends ProcessDeps {
  /**
   * The socket peer of a request (Node provides it from the connection). Absent on workerd, where the
   * rate limiter reads CF-Connecting-IP instead; returning undefined means the peer is unknown.
   */
  peerAddress?: (c: Context) => string | undefined;
}

export type AppEnv = {
  Variables: {
    deps: Deps;
    db: VerbContext["db"];
    requestId: string;
    /** The client's address (trusted-proxy aware, spec 8.1); "unknown" when there is no socket. */
    clientIp?: string;
    /** True when the socket peer is inside TRUSTED_PROXIES (its forwarded headers count). */
    viaTrustedProxy?: boolean;
    /** The authenticated caller, when a valid credential was presented. */
    actor?: Actor;
    /** Why a presented credential was refused (said in the 401 of a protected route). */
    authError?: string;
    /** The rate limiter's answer for this request, started early (functions/middleware/rate-limit.ts). */
    rateLimit?: { pending: Promise<RateLimitDecision>; bucket: Bucket };
    /** Work that goes on reading the database after the handler returned (a streamed export). */
    streaming?: Promise<unknown>;
  };
};
