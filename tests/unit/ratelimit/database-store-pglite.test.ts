// The database store on PGlite, the embedded default, which runs the same batch statement as PostgreSQL:
// distinct keys, one key several times and two window lengths in one turn, and the prune.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseConfig } from "../../../shared/config.ts";
import { DatabaseRateLimitStore } from "../../../shared/ratelimit/database-store.ts";
import { type NodeDatabase, openDatabase } from "../../../runtime/database.ts";
import { applyMigrations } from "../../../sidecar/startup/migrate.ts";
import { drivenClock } from "./support.ts";

const MIN = 60_000;
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

let dir: string;
let database: NodeDatabase;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ratelimit-pglite-"));
  // A fresh PGlite data directory takes a few seconds (and a lot of memory) to initialise.
  database = await openDatabase(parseConfig({ DATA_DIR: dir }));
  await applyMigrations(database);
}, 120_000);
afterAll(async () => {
  await database?.provider.close();
  rmSync(dir, { recursive: true, force: true });
});

it("counts a batch on PGlite as on PostgreSQL", async () => {
  const pglite = database.pglite!;
  // 15 s into minute 40: the previous minute weighs 3/4, floor(8 * 3/4) = 6 of it count; the 15-minute
  // window started at minute 30. The counter of T0 is older than twice the longest window (15 min).
  await pglite.query("insert into rate_limit_counters (key, window_start, hits) values ($1, $2, 8), ($3, $4, 1)", [
    "pg-prev",
    new Date(T0 + 39 * MIN),
    "pg-old",
    new Date(T0),
  ]);
  const s = new DatabaseRateLimitStore({ database: database.provider, clock: drivenClock(T0 + 40 * MIN + 15_000), pruneEvery: 4 });
  const results = await Promise.all([
    s.hit("pg-a", 2, MIN),
    s.hit("pg-b", 2, 15 * MIN),
    s.hit("pg-a", 2, MIN),
    s.hit("pg-a", 2, MIN),
    s.hit("pg-prev", 10, MIN),
  ]);
  expect(results).toEqual([
    { success: true, remaining: 1, resetAt: T0 + 41 * MIN },
    { success: true, remaining: 1, resetAt: T0 + 45 * MIN },
    { success: true, remaining: 0, resetAt: T0 + 41 * MIN },
    { success: false, remaining: 0, resetAt: T0 + 41 * MIN },
    { success: true, remaining: 3, resetAt: T0 + 41 * MIN },
  ]);
  const rows = await pglite.query<{ key: string; hits: number }>("select key, hits from rate_limit_counters order by key");
  // The batch passed pruneEvery: the old counter is gone.
  expect(rows.rows).toEqual([
    { key: "pg-a", hits: 2 },
    { key: "pg-b", hits: 1 },
    { key: "pg-prev", hits: 8 },
    { key: "pg-prev", hits: 1 },
  ]);
});
