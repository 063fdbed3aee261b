// The COPY fallback of a PostgreSQL backup (method "copy"), for a machine without a pg_dump at least
// as new as the server. A plain SQL archive that the restore (psql --single-transaction after dropping
// our schemas) replays like a pg_dump one, written from ONE repeatable-read, read-only transaction:
// 1. the schema: our own drizzle migrations up to the level the database is at (the DDL the server
//    itself was built from), and drizzle's migration table;
// 2. the foreign keys dropped, every table emptied (migrations may seed rows), then one
//    `COPY ... FROM stdin` block per table of the public and drizzle schemas, streamed from
//    `COPY ... TO STDOUT`; the foreign keys re-added afterwards with the server's own definitions
//    (pg_get_constraintdef), as pg_dump does. No session_replication_role (superuser only) is needed;
// 3. every sequence set with setval.
// Our triggers are statement-level NOTIFYs, harmless during a restore, so they are left enabled.
import { Readable } from "node:stream";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type postgres from "postgres";
import { MIGRATIONS_FOLDER } from "../migrations-folder.ts";

const SCHEMAS = ["public", "drizzle"];

/** A quoted SQL identifier. */
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** A quoted SQL string literal. */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

interface TableInfo {
  schema: string;
  name: string;
  columns: string[];
}

/** The migrations as drizzle reads them, and the tables they create (schema-qualified, lower case). */
function migrationPlan(): { statements: string[][]; tables: Set<string> } {
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const tables = new Set<string>(["drizzle.__drizzle_migrations"]);
  const create = /create\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?(?:"?(\w+)"?\.)?"?(\w+)"?/gi;
  for (const m of migrations)
    for (const s of m.sql)
      for (const hit of s.matchAll(create)) tables.add(`${(hit[1] ?? "public").toLowerCase()}.${hit[2]!.toLowerCase()}`);
  return { statements: migrations.map((m) => m.sql), tables };
}

/** Reads what the archive needs inside the snapshot's transaction. */
async function catalogue(tx: postgres.ReservedSql) {
  const tables = await tx<TableInfo[]>`
    select n.nspname as schema, c.relname as name,
           array_agg(a.attname::text order by a.attnum) as columns
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     where n.nspname = any(${SCHEMAS}) and c.relkind in ('r', 'p') and not c.relispartition
     group by n.nspname, c.relname
     order by n.nspname, c.relname`;
  const foreignKeys = await tx<{ tbl: string; name: string; def: string }[]>`
    select format('%I.%I', n.nspname, c.relname) as tbl, k.conname as name, pg_get_constraintdef(k.oid) as def
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_namespace n on n.oid = c.relnamespace
     where k.contype = 'f' and k.conparentid = 0 and n.nspname = any(${SCHEMAS})
     order by 1, 2`;
  const sequences = await tx<{ name: string; last_value: string | null }[]>`
    select format('%I.%I', schemaname, sequencename) as name, last_value::text as last_value
      from pg_sequences where schemaname = any(${SCHEMAS}) order by 1`;
  const [level] = await tx<{ applied: number }[]>`select count(*)::int as applied from drizzle.__drizzle_migrations`;
  return { tables, foreignKeys, sequences, applied: level?.applied ?? 0 };
}

/** Checks the server before the dump starts: its migration level is one this build has the files of. */
export async function copyDumpPreflight(sql: postgres.Sql): Promise<{ migration_level: number }> {
  const [row] = await sql<{ present: boolean }[]>`select to_regclass('drizzle.__drizzle_migrations') is not null as present`;
  if (!row?.present)
    throw new Error(
      "The database has no drizzle migration record; the COPY fallback rebuilds the schema from our migrations and cannot dump it.",
    );
  const [level] = await sql<{ applied: number }[]>`select count(*)::int as applied from drizzle.__drizzle_migrations`;
  const known = migrationPlan().statements.length;
  if (level!.applied > known)
    throw new Error(
      `The database is at migration ${level!.applied}, newer than this build's ${known}; back it up with the newer build or with pg_dump.`,
    );
  return { migration_level: level!.applied };
}

/**
 * The archive's plain SQL as a stream (not yet compressed). The transaction is held on one reserved
 * connection for the whole stream and ended (rolled back: it only read) when the stream ends or is destroyed.
 */
export function copyDumpStream(sql: postgres.Sql): Readable {
  async function* produce(): AsyncGenerator<string | Buffer> {
    const tx = await sql.reserve();
    try {
      await tx.unsafe("begin isolation level repeatable read read only");
      const { tables, foreignKeys, sequences, applied } = await catalogue(tx);
      const plan = migrationPlan();
      const unknown = tables.map((t) => `${t.schema}.${t.name}`).filter((t) => !plan.tables.has(t.toLowerCase()));
      if (unknown.length)
        throw new Error(
          `Tables not created by our migrations cannot be rebuilt by the COPY fallback: ${unknown.join(", ")}. Install a pg_dump at least as new as the server.`,
        );
      yield `-- infra-control-plane backup, method copy (COPY fallback: no suitable pg_dump)\n-- migration level ${applied}; restore: npm run restore -- <this archive>\n`;
      yield "SET client_encoding = 'UTF8';\nSET standard_conforming_strings = on;\nSET check_function_bodies = false;\nSET client_min_messages = warning;\nSET search_path = public;\n\n";
      yield "-- Schema: our migrations, replayed up to the database's level\n";
      yield "CREATE SCHEMA IF NOT EXISTS drizzle;\nCREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint);\n";
      for (const [i, statements] of plan.statements.slice(0, applied).entries()) {
        yield `\n-- migration ${i}\n`;
        // An empty statement after each: a migration statement may end in a comment with no semicolon.
        for (const s of statements) yield `${s.trim()}\n;\n`;
      }
      yield "\n-- Data: foreign keys off (re-added below), tables emptied of rows the migrations seeded\n";
      for (const fk of foreignKeys) yield `ALTER TABLE ${fk.tbl} DROP CONSTRAINT ${ident(fk.name)};\n`;
      if (tables.length) yield `TRUNCATE ${tables.map((t) => `${ident(t.schema)}.${ident(t.name)}`).join(", ")};\n`;
      for (const t of tables) {
        const target = `${ident(t.schema)}.${ident(t.name)} (${t.columns.map(ident).join(", ")})`;
        yield `\nCOPY ${target} FROM stdin;\n`;
        const rows = await tx.unsafe(`copy ${target} to stdout`).readable();
        for await (const chunk of rows) yield chunk as Buffer;
        yield "\\.\n";
      }
      yield "\n-- Sequences\n";
      for (const s of sequences) if (s.last_value !== null) yield `SELECT pg_catalog.setval(${literal(s.name)}, ${s.last_value}, true);\n`;
      yield "\n-- Foreign keys\n";
      for (const fk of foreignKeys) yield `ALTER TABLE ${fk.tbl} ADD CONSTRAINT ${ident(fk.name)} ${fk.def};\n`;
      yield "\n-- end of backup\n";
    } finally {
      await tx.unsafe("rollback").catch(() => {});
      tx.release();
    }
  }
  return Readable.from(produce(), { objectMode: false });
}
