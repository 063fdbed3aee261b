// Migration 0045 (ADR 0493): hardware connections written with the schema before ports and cables
// become cables between link-<id> interfaces, each keeping its connection, type, notes and bandwidth.
// A fresh database is migrated up to 0041, rows are written the way the old code wrote them, then the
// rest of the migrations run on it.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MIGRATIONS_FOLDER } from "../../../runtime/migrations-folder.ts";
import { databaseUrl, PG_ADMIN_URL } from "../../helpers/env.ts";

const name = `cp_test_${process.env.CP_TEST_RUNNER_PID ?? process.pid}_${process.pid}_migr${Math.random().toString(36).slice(2, 6)}`;
let sql: postgres.Sql;
let before: string;

beforeAll(async () => {
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  sql = postgres(databaseUrl(name), { max: 1, onnotice: () => {} });
  // The migrations as they were before ports and cables: the journal cut before 0044.
  before = mkdtempSync(join(tmpdir(), "migrations-before-"));
  cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
  const journal = JSON.parse(readFileSync(join(before, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.tag < "0044");
  writeFileSync(join(before, "meta/_journal.json"), JSON.stringify(journal));
});

afterAll(async () => {
  await sql?.end();
  rmSync(before, { recursive: true, force: true });
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end();
});

it("turns every connection into a cable between two interfaces and loses nothing", async () => {
  const db = drizzle(sql);
  await migrate(db, { migrationsFolder: before });
  expect((await sql`select to_regclass('cables') as t`)[0]!.t).toBeNull();
  const [h1, h2, h3] = await sql`insert into hardware (name) values ('core'), ('access'), ('storage') returning id`;
  const conns = await sql`
    insert into hardware_connections (source_hardware_id, target_hardware_id, connection_type, bandwidth_mbps, notes) values
      (${h1!.id}, ${h2!.id}, 'ethernet', 10000, 'uplink'),
      (${h2!.id}, ${h1!.id}, 'fiber', null, null),
      (${h1!.id}, ${h3!.id}, 'ethernet', 25000, 'iscsi')
    returning id, source_hardware_id, target_hardware_id, connection_type, bandwidth_mbps, notes`;

  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });

  // The connections are all still there, unchanged: the topology and blast radius read them.
  expect(
    await sql`select id, source_hardware_id, target_hardware_id, connection_type, bandwidth_mbps, notes from hardware_connections order by id`,
  ).toEqual([...conns]);
  const cables = await sql`
    select c.connection_id, c.type, c.label, c.description, c.status,
           a.hardware_id as a_node, a.name as a_name, a.speed_mbps as a_speed, b.hardware_id as b_node, b.name as b_name
    from cables c
    join interfaces a on c.a_kind = 'interface' and a.id = c.a_id
    join interfaces b on c.b_kind = 'interface' and b.id = c.b_id
    order by c.connection_id`;
  expect(cables).toEqual(
    conns.map((c) => ({
      connection_id: c.id,
      type: c.connection_type,
      label: `link-${c.id}`,
      description: c.notes,
      status: "connected",
      a_node: c.source_hardware_id,
      a_name: `link-${c.id}`,
      a_speed: c.bandwidth_mbps,
      b_node: c.target_hardware_id,
      b_name: `link-${c.id}`,
    })),
  );
  expect(Number((await sql`select count(*)::int as n from interfaces`)[0]!.n)).toBe(6);
});
