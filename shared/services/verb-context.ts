// What every service verb receives: the database handle, the injected clock and randomness, and who
// is acting from where.
import type { Clock, Random } from "../clock.ts";
import type { Db } from "../db/database.ts";
import type { Actor } from "./actor.ts";

export interface VerbContext {
  db: Db;
  clock: Clock;
  random: Random;
  actor?: Actor | undefined;
  ip?: string | null;
  requestId?: string;
  /** This process's credential cache, flushed when a verb commits a security-relevant change. */
  credentialCache?: { flush(): void } | undefined;
}
