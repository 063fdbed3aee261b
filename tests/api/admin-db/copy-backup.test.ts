// The COPY fallback (method copy): with no suitable pg_dump, POST /admin/db/backup dumps a populated
// PostgreSQL database through COPY inside one repeatable-read transaction; the archive restores with
// the real restore path (psql --single-transaction) into a fresh database owned by a role that is not a
// superuser, and every table of the public and drizzle schemas has the same rows and every sequence
// the same position; the restored database is at the same migration level.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeBackupStore } from "../../../runtime/backups/node-backup-store.ts";
import { restore } from "../../../runtime/backups/restore.ts";
import { parseConfig } from "../../../shared/config.ts";
import { databaseUrl, PG_ADMIN_URL } from "../../helpers/env.ts";
import { seedRichInventory } from "../../helpers/inventory-seed.ts";
import { createHarness, type Harness } from "../audit/harness.ts";

const dir = mkdtempSync(join(tmpdir(), "svc-copy-backups-"));
const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
const FRESH = `cp_copy_restore_${suffix}`;
const ROLE = `cp_copy_owner_${suffix}`;
let h: Harness;
const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });

beforeAll(async () => {
  h = await createHarness();
  const { config } = h.t.runtime.deps;
  h.t.runtime.deps.backups = nodeBackupStore({
    dir,
    pgDump: "/nonexistent/pg_dump",
    postgres: { url: config.DATABASE_URL!, sql: h.t.runtime.database.sql! },
  });
  await seedRichInventory(h.t.sql);
  // Text COPY must carry tabs, backslashes, newlines, NULLs and non-ASCII through unchanged.
  await h.t
    .sql`insert into hardware (name, role, notes) values (${"tab\there \\ back\\slash"}, 'server', ${"\\N is not null\r\nü €"}), ('no-notes', 'server', null)`;
  await admin.unsafe(`create role "${ROLE}" login nosuperuser nocreatedb nocreaterole`);
  await admin.unsafe(`create database "${FRESH}" owner "${ROLE}" template template0`);
}, 60_000);
afterAll(async () => {
  await h?.t.close();
  await admin.unsafe(`drop database if exists "${FRESH}" with (force)`);
  await admin.unsafe(`drop role if exists "${ROLE}"`);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
});

/** Every table's rows (as text, sorted) and every sequence's position, keyed by name. */
async function contents(sql: postgres.Sql, skip: string[] = []): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const tables = await sql<
    { t: string }[]
  >`select format('%I.%I', n.nspname, c.relname) as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'p') order by 1`;
  for (const { t } of tables) {
    if (skip.includes(t)) continue;
    const [row] = await sql.unsafe<{ n: number; digest: string | null }[]>(
      `select count(*)::int as n, md5(string_agg(x::text, E'\\n' order by x::text)) as digest from ${t} x`,
    );
    out.set(t, `${row!.n}:${row!.digest}`);
  }
  for (const s of await sql<
    { name: string; v: string | null }[]
  >`select format('%I.%I', schemaname, sequencename) as name, last_value::text as v from pg_sequences where schemaname in ('public', 'drizzle')`)
    if (!skip.some((t) => s.name.startsWith(`${t}_`))) out.set(`seq ${s.name}`, String(s.v));
  return out;
}

describe("COPY fallback", () => {
  it("backs up without pg_dump (method copy) and restores into a fresh database as a non-superuser, table for table", async () => {
    const res = await h.call("/api/v1/admin/db/backup", { method: "POST" });
    expect(res.status).toBe(200);
    const { backup } = await res.json();
    expect(backup.method).toBe("copy");
    expect(backup.filename).toMatch(/^cb-\d{8}T\d{9}Z\.sql\.gz$/);
    const [recorded] = await h.t.sql<
      { manifest: Record<string, unknown> }[]
    >`select manifest from db_backups where filename = ${backup.filename}`;
    expect(recorded!.manifest).toMatchObject({
      method: "copy",
      fallback_reason: "no pg_dump on PATH (/nonexistent/pg_dump)",
      migration_level: expect.any(Number),
    });
    const text = gunzipSync(readFileSync(backup.path)).toString("utf8");
    expect(text).toContain('COPY "public"."hardware"');
    expect(text).toContain("SELECT pg_catalog.setval(");

    // The archive holds the database as it was when the dump's transaction began: the backup's own
    // db_backups row, job run and audit entry came after. Compare everything else.
    const later = ["public.db_backups", "public.job_runs", "public.audit_log"];
    const before = await contents(h.t.sql, later);
    expect(Number(before.get("public.hardware")!.split(":")[0])).toBeGreaterThan(3);

    const url = new URL(databaseUrl(FRESH));
    url.username = ROLE;
    const config = parseConfig({ DATABASE_URL: url.toString(), DATA_DIR: dir, BACKUP_DIR: dir, LOG_LEVEL: "error" });
    const lines: string[] = [];
    const done = await restore(config, { archive: backup.path, log: (l) => lines.push(l) });
    expect(done.sha256).toBe(backup.sha256);

    const restored = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      const after = await contents(restored, later);
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [k, v] of before) expect(after.get(k), k).toBe(v);
      // The job run recorded before the dump is in it (as running), and the archive is re-recorded.
      const [archive] = await restored<{ method: string }[]>`select method from db_backups where filename = ${backup.filename}`;
      expect(archive).toEqual({ method: "copy" });
      // Foreign keys are back: a dangling reference is refused.
      await expect(restored`insert into compute_units (name, kind, hardware_id) values ('x', 'vm', 999999)`).rejects.toThrow(/foreign key/);
      const fks = await restored<{ n: number }[]>`select count(*)::int as n from pg_constraint where contype = 'f'`;
      const srcFks = await h.t.sql<{ n: number }[]>`select count(*)::int as n from pg_constraint where contype = 'f'`;
      expect(fks[0]!.n).toBe(srcFks[0]!.n);
      // Sequences continue after the restored rows.
      const [fresh] = await restored<{ id: number }[]>`insert into hardware (name, role) values ('after-restore', 'server') returning id`;
      const [max] = await h.t.sql<{ id: number }[]>`select max(id)::int as id from hardware`;
      expect(fresh!.id).toBeGreaterThan(max!.id);
    } finally {
      await restored.end({ timeout: 1 });
    }
  }, 120_000);

  it("an aborted COPY dump leaves no archive and ends its transaction", async () => {
    const store = h.t.runtime.deps.backups!;
    const controller = new AbortController();
    const pending = store.writeBackup("cb-20000101T000002000Z", controller.signal);
    setTimeout(() => controller.abort(), 5);
    await expect(pending).rejects.toThrow();
    expect(readdirSync(dir).filter((n) => n.startsWith("cb-20000101T000002000Z"))).toEqual([]);
    const open = async () =>
      (
        await h.t.sql<
          { n: number }[]
        >`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`
      )[0]!.n;
    // Other work of the harness may be between two statements of its own short transaction when a
    // sample is taken, so the dump's transaction has ended once one sample (within 20 s) sees none.
    let seen = await open();
    for (let i = 0; i < 200 && seen > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await open();
    }
    expect(seen).toBe(0);
  }, 30_000);

  it("a table our migrations do not create makes the backup fail (it could not be restored), nothing recorded", async () => {
    await h.t.sql`create table operator_notes (id int primary key, body text)`;
    try {
      const count = (await h.t.sql`select 1 from db_backups`).length;
      const res = await h.call("/api/v1/admin/db/backup", { method: "POST" });
      expect(res.status).toBe(500);
      expect((await res.json()).detail).toContain("public.operator_notes");
      expect((await h.t.sql`select 1 from db_backups`).length).toBe(count);
    } finally {
      await h.t.sql`drop table operator_notes`;
    }
  });
});
