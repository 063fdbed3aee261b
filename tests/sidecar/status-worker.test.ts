import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Clock, cryptoRandom } from "../../shared/clock.ts";
import { parseConfig } from "../../shared/config.ts";
import { silentLogger } from "../../shared/logger.ts";
import { type CriticalDownInput, recordCriticalDowns } from "../../shared/verbs/status/critical-down.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import { type NodeDatabase, openDatabase } from "../../runtime/database.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

let tdb: TestDatabase;
let database: NodeDatabase;
let sql: postgres.Sql;
const base = new Date("2026-11-22T10:00:00Z");
const at = (minutes: number) => ({ now: () => new Date(base.getTime() + minutes * 60_000) });

beforeAll(async () => {
  tdb = await createTestDatabase();
  database = await openDatabase(parseConfig({ DATABASE_URL: tdb.url, DB_POOL_MAX: "3" }));
  sql = postgres(tdb.url, { max: 2, onnotice: () => {} });
});
afterAll(async () => {
  await sql.end();
  await database.provider.close();
  await tdb.drop();
});
beforeEach(async () => {
  await sql`truncate hardware, status_history restart identity cascade`;
  await sql`insert into hardware (id, name, status, status_changed_at) values (1, 'pve-1', 'down', ${base}), (2, 'pve-2', 'up', ${base})`;
  await sql`insert into compute_units (name, kind, hardware_id) values ('vm-a', 'vm', 1)`;
  await sql`insert into services (name, slug, hardware_id) values ('svc-a', 'svc-a', 1)`;
});

/** One round of the rule as the status worker runs it: as the system actor, at `clock`. */
const round = (clock: Clock, input: Partial<CriticalDownInput> = {}) =>
  recordCriticalDowns({ ctx: systemContext({ db: database.db, clock, random: cryptoRandom }), input: { logger: silentLogger, ...input } });

const events = () =>
  sql<
    { entity_id: number; severity: string; metrics: Record<string, unknown> }[]
  >`select entity_id, severity, metrics from status_history order by id`;

describe("status worker: critical DOWN", () => {
  it("waits more than 5 minutes, then records one critical event with the blast radius summary", async () => {
    expect(await round(at(5))).toBe(0);
    expect(await round(at(6))).toBe(1);
    expect(await round(at(7))).toBe(0);
    const [e] = await events();
    expect(e).toMatchObject({ entity_id: 1, severity: "critical" });
    expect(e!.metrics.blast_radius).toEqual({
      summary: 'Hardware node "pve-1" is DOWN: 1 VM and 1 service affected.',
      total_impact_count: 2,
      impacted_compute_units: 1,
      impacted_services: 1,
      impacted_hardware: 0,
    });
  });

  it("records the event even when the blast radius cannot be computed", async () => {
    const failing = async () => {
      throw new Error("graph unavailable");
    };
    expect(await round(at(10), { blastRadius: failing })).toBe(1);
    const [e] = await events();
    expect(e!.severity).toBe("critical");
    expect(e!.metrics.blast_radius).toBeUndefined();
    expect(e!.metrics.blast_radius_error).toBe("graph unavailable");
  });

  it("a new outage after recovery gets its own event", async () => {
    await round(at(6));
    await sql`update hardware set status = 'down', status_changed_at = ${at(30).now()} where id = 1`;
    expect(await round(at(36))).toBe(1);
    expect((await events()).length).toBe(2);
  });
});
