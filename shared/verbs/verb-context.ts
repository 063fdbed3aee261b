// What every service verb receives: the database handle, the injected clock and randomness, and who
// is acting from where.
import type { Clock, Random } from "../clock.ts";
import type { Db } from "../db/database.ts";
import type { HostResolver } from "../net/resolved-host.ts";
import { type Actor, SYSTEM_ACTOR } from "./actor.ts";

export interface VerbContext {
  db: Db;
  clock: Clock;
  random: Random;
  actor?: Actor | undefined;
  ip?: string | null;
  requestId?: string;
  /** This process's credential cache, flushed when a verb commits a security-relevant change. */
  credentialCache?: { flush(): void } | undefined;
  /** Resolves a name as this process would connect to it (Node); saved hosts are judged by their addresses (shared/net/resolved-host.ts). */
  resolveHost?: HostResolver | undefined;
}

/** The context of work the system does on its own (jobs, workers, pollers): the system actor, no address. */
export function systemContext(deps: Pick<VerbContext, "db" | "clock" | "random">): VerbContext {
  return { db: deps.db, clock: deps.clock, random: deps.random, actor: SYSTEM_ACTOR, ip: null };
}
