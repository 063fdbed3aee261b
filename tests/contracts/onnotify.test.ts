// Contract of the `onnotify` pass-through (runtime/credential-invalidation.ts). The credential cache
// listens on a postgres.js client of its own, built with two connection callbacks: `onnotify`, which is
// not in postgres.js's typings (hence the cast there) but is how a connection hands on every
// NotificationResponse, and `onclose`, which turns the cache off as soon as the LISTEN is lost. The
// cache is only trusted while both hold.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeDatabase } from "../../runtime/database.ts";
import { listenForCredentialChanges } from "../../runtime/credential-invalidation.ts";
import { CredentialCache } from "../../shared/identity/credential-cache.ts";
import { silentLogger } from "../../shared/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { because, eventually, type Workaround } from "./support.ts";

const W: Workaround = { name: "onnotify", file: "runtime/credential-invalidation.ts", libs: { postgres: "3.4.9" } };

let database: TestDatabase;
let admin: postgres.Sql;

/** Terminates the backends of this test database whose last statement was `query`; how many. */
async function terminate(query: string): Promise<number> {
  const rows =
    await admin`select pg_terminate_backend(pid) as done from pg_stat_activity where datname = ${database.name} and query = ${query}`;
  return rows.length;
}

beforeAll(async () => {
  database = await createTestDatabase();
  admin = postgres(database.url, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await admin.end({ timeout: 1 });
  await database.drop();
});

describe("postgres.js, as the credential invalidation expects it", () => {
  it("postgres.js hands every NotificationResponse to the untyped `onnotify` option as (channel, payload)", async () => {
    const heard: [string, string][] = [];
    const sql = postgres(database.url, {
      max: 1,
      onnotice: () => {},
      ...({ onnotify: (c: string, p: string) => heard.push([c, p]) } as object),
    });
    try {
      await sql.unsafe(`listen "contract_onnotify"`);
      await admin`select pg_notify('contract_onnotify', 'first'), pg_notify('contract_onnotify', 'second')`;
      await eventually(() => heard.length >= 2);
      expect(
        heard,
        because(W, "postgres.js calls options.onnotify(channel, payload) for each notification its connection receives"),
      ).toEqual([
        ["contract_onnotify", "first"],
        ["contract_onnotify", "second"],
      ]);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it("postgres.js calls the `onclose` option when the connection's backend goes away", async () => {
    const closed: number[] = [];
    const sql = postgres(database.url, { max: 1, onnotice: () => {}, onclose: (id) => closed.push(id) });
    try {
      await sql.unsafe(`listen "contract_onclose"`);
      expect(await terminate(`listen "contract_onclose"`)).toBe(1);
      expect(await eventually(() => closed.length > 0), because(W, "postgres.js reports a lost connection through options.onclose")).toBe(
        true,
      );
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});

describe("the credential invalidation's effect", () => {
  it("a credential change announced by the database flushes the cache; a lost LISTEN turns it off until it listens again", async () => {
    const cache = new CredentialCache({ ttlMs: 60_000 });
    // On PostgreSQL only `pglite` of the database is read (to choose this path): it is absent.
    const task = listenForCredentialChanges({} as NodeDatabase, cache, silentLogger, database.url);
    await task.start();
    try {
      expect(await eventually(() => cache.live), "the credential cache starts listening").toBe(true);

      // Notifications arrive in order: when the second (a real credential change) has flushed the cache,
      // the first (another channel) has been seen, and must not have flushed it.
      const before = cache.generation;
      await admin`select pg_notify('not_credentials', 'x')`;
      await admin`update users set role = role where false`;
      await eventually(() => cache.generation !== before);
      expect(
        cache.generation - before,
        because(W, "a NOTIFY on `credentials` (migration 0007's trigger) reaches the onnotify handler and flushes, other channels do not"),
      ).toBe(1);

      expect(await terminate(`listen "credentials"`)).toBe(1);
      expect(await eventually(() => !cache.live), because(W, "onclose turns the cache off when the LISTEN connection is lost")).toBe(true);
      expect(await eventually(() => cache.live), "the cache listens again after its retry (1 s)").toBe(true);

      const again = cache.generation;
      await admin`update users set role = role where false`;
      expect(
        await eventually(() => cache.generation !== again),
        because(W, "notifications reach the handler again on the new connection"),
      ).toBe(true);
    } finally {
      await task.stop();
    }
  });
});
