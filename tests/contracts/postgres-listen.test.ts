// Contract of the generic LISTEN helper (runtime/listen.ts, used by the SNMP poller and by
// sidecar/streams/hub.ts). They rely on postgres.js's own sql.listen: a dedicated connection
// that, when lost, is re-established and LISTENs again by itself; the hub therefore retries only a
// first LISTEN that failed, never a lost one.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeDatabase } from "../../runtime/database.ts";
import { databaseListener } from "../../runtime/listen.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { because, eventually, pgClient, type Workaround } from "./support.ts";

const W: Workaround = { name: "postgres-listen", file: "runtime/listen.ts, sidecar/streams/hub.ts", libs: { postgres: "3.4.9" } };
const CHANNEL = "contract_relisten";

let database: TestDatabase;
let admin: postgres.Sql;

const listeners = () =>
  admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${database.name} and query = ${`listen "${CHANNEL}"`}`;

beforeAll(async () => {
  database = await createTestDatabase();
  admin = postgres(database.url, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await admin.end({ timeout: 1 });
  await database.drop();
});

describe("postgres.js's sql.listen, as the sidecar's listeners expect it", () => {
  it("the unlisten postgres.js returns ends the LISTEN (ChannelHub.stop and the poller's stop call it)", async () => {
    const sql = pgClient(database.url, { max: 2 });
    try {
      const unlisten = await databaseListener({ sql } as NodeDatabase)!(CHANNEL, () => {});
      expect(await listeners()).toHaveLength(1);
      await unlisten();
      expect(await listeners(), because(W, "unlisten() sends UNLISTEN on the listening connection")).toEqual([]);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  // Not asserted: after such a re-listen, postgres.js 3.4.9's original unlisten() no longer finds its
  // listener (the re-listen registered a copy), so the LISTEN and the callback outlive it.
  it("after its connection is lost, postgres.js listens again by itself and notifications reach the listener again", async () => {
    const sql = pgClient(database.url, { max: 2 });
    const heard: string[] = [];
    try {
      const listen = databaseListener({ sql } as NodeDatabase)!;
      await listen(CHANNEL, (payload) => heard.push(payload));
      await admin`select pg_notify(${CHANNEL}, 'before')`;
      await eventually(() => heard.length === 1);

      const [first] = await listeners();
      expect(first, "one backend listens").toBeDefined();
      await admin`select pg_terminate_backend(${first!.pid})`;
      const relistened = await eventually(async () => (await listeners()).some((l) => l.pid !== first!.pid));
      expect(relistened, because(W, "postgres.js re-issues LISTEN on a new connection when the listening one is lost")).toBe(true);

      await admin`select pg_notify(${CHANNEL}, 'after')`;
      await eventually(() => heard.length === 2);
      expect(heard, because(W, "the original listener callback keeps receiving after postgres.js re-listened")).toEqual([
        "before",
        "after",
      ]);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});
