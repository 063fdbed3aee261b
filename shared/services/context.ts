// What every service verb receives: the database handle and the injected clock and randomness.
// Identity (actor, role, scopes, ip) joins it with the access layer.
import type { Clock, Random } from "../clock.ts";
import type { Db } from "../db/database.ts";

export interface ServiceContext {
  db: Db;
  clock: Clock;
  random: Random;
}
