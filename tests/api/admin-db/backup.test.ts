// /admin/db: health, a backup on PostgreSQL (pg_dump | gzip) recorded only once verified, listed,
// downloaded byte for byte; a failed or aborted dump leaves nothing listed; PGlite's dump restores.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeBackupStore } from "../../../runtime/backups/node-backup-store.ts";
import { createHarness, type Harness } from "../audit/harness.ts";

const dir = mkdtempSync(join(tmpdir(), "svc-backups-"));
let h: Harness;

beforeAll(async () => {
  h = await createHarnessWithDir();
}, 60_000);
afterAll(async () => {
  await h?.t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function createHarnessWithDir(): Promise<Harness> {
  const harness = await createHarness();
  // The harness builds its runtime from its own env; point its backup store at our temp dir.
  const { config } = harness.t.runtime.deps;
  harness.t.runtime.deps.backups = nodeBackupStore({ dir, postgres: { url: config.DATABASE_URL!, sql: harness.t.runtime.database.sql! } });
  return harness;
}

describe("/admin/db", () => {
  it("health answers the dialect, migration level and connections", async () => {
    const res = await h.call("/api/v1/admin/db/health");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      status: "healthy",
      dialect: "postgresql",
      timescaledb_available: false,
      backup_last_at: null,
      backups_available: true,
    });
    expect(body.migration_level).toBe(body.migration_expected);
    expect(body.alembic_version).toMatch(/^\d{4}_/);
    expect(body.connections_active).toBeGreaterThan(0);
    expect(body.connections_max).toBeGreaterThan(0);
  });

  it("a viewer may not back up, list or download", async () => {
    for (const [method, path] of [
      ["POST", "/api/v1/admin/db/backup"],
      ["GET", "/api/v1/admin/db/snapshots"],
      ["GET", "/api/v1/admin/db/health"],
    ] as const) {
      const res = await h.call(path, { method, token: h.viewerToken });
      expect(res.status).toBe(403);
    }
  });

  it("takes a verified pg_dump backup, lists it, and serves its exact bytes", async () => {
    const res = await h.call("/api/v1/admin/db/backup", { method: "POST" });
    expect(res.status).toBe(200);
    const { status, backup } = await res.json();
    expect(status).toBe("ok");
    expect(backup.filename).toMatch(/^cb-\d{8}T\d{9}Z\.sql\.gz$/);
    expect(backup.method).toBe("pg_dump");
    expect(backup.verified_at).not.toBeNull();
    expect(readdirSync(dir).filter((n) => n.endsWith(".partial"))).toEqual([]);
    // The owner's only, like the vault key, even under the usual umask 022.
    for (const name of [backup.filename, `${backup.filename}.sha256`])
      expect((statSync(join(dir, name)).mode & 0o777).toString(8)).toBe("600");

    const list = await (await h.call("/api/v1/admin/db/snapshots")).json();
    expect(list.snapshots.map((s: { filename: string }) => s.filename)).toContain(backup.filename);
    expect(list.restore_command).toContain("restore");

    const dl = await h.call(`/api/v1/admin/db/backups/${backup.filename}`);
    expect(dl.status).toBe(200);
    const bytes = Buffer.from(await dl.arrayBuffer());
    expect(bytes.length).toBe(backup.size_bytes);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(backup.sha256);
    expect(dl.headers.get("x-checksum-sha256")).toBe(backup.sha256);
    const text = gunzipSync(bytes).toString("utf8");
    expect(text).toContain("PostgreSQL database dump complete");
    expect(text).toContain("admin@example.com");

    const health = await (await h.call("/api/v1/admin/db/health")).json();
    expect(health.backup_last_filename).toBe(backup.filename);

    const runs = await h.t.sql<
      { outcome: string; detail: { bytes: number; method: string } }[]
    >`select outcome, detail from job_runs where job = 'db_backup' order by id desc limit 1`;
    expect(runs[0]).toMatchObject({ outcome: "success", detail: { bytes: backup.size_bytes, method: "pg_dump" } });
    const audit = await h.t.sql`select 1 from audit_log where action = 'db_backup'`;
    expect(audit.length).toBe(1);
  });

  it("refuses names that are not recorded archives, paths included", async () => {
    for (const name of ["..%2F..%2Fetc%2Fpasswd", "cb-20990101T000000000Z.sql.gz", "%2E%2E", "x.sql.gz"]) {
      const res = await h.call(`/api/v1/admin/db/backups/${name}`);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("json");
    }
  });

  it("a failed dump records a failed run and lists nothing new; stale .partial files are removed", async () => {
    const before = (await (await h.call("/api/v1/admin/db/snapshots")).json()).snapshots.length;
    writeFileSync(join(dir, "cb-20000101T000000000Z.sql.gz.partial"), "left by a killed process");
    const fake = join(dir, "..", `refusing-pg-dump-${process.pid}.sh`);
    writeFileSync(
      fake,
      '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "pg_dump (PostgreSQL) 99.0"; exit 0; fi\necho "connection refused" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const good = h.t.runtime.deps.backups;
    const { config } = h.t.runtime.deps;
    h.t.runtime.deps.backups = nodeBackupStore({
      dir,
      pgDump: fake,
      postgres: { url: config.DATABASE_URL!, sql: h.t.runtime.database.sql! },
    });
    try {
      const res = await h.call("/api/v1/admin/db/backup", { method: "POST" });
      expect(res.status).toBe(500);
      expect((await res.json()).detail).toContain("connection refused");
    } finally {
      h.t.runtime.deps.backups = good;
      rmSync(fake, { force: true });
    }
    expect(readdirSync(dir).filter((n) => n.endsWith(".partial"))).toEqual([]);
    const after = (await (await h.call("/api/v1/admin/db/snapshots")).json()).snapshots.length;
    expect(after).toBe(before);
    const [run] = await h.t.sql<
      { outcome: string; error: string }[]
    >`select outcome, error from job_runs where job = 'db_backup' order by id desc limit 1`;
    expect(run).toMatchObject({ outcome: "failed" });
  });

  it("a pg_dump that dies mid-way (stdout ends cleanly, truncated) fails the backup and records nothing", async () => {
    const fake = join(dir, "..", `fake-pg-dump-${process.pid}.sh`);
    writeFileSync(
      fake,
      '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "pg_dump (PostgreSQL) 99.0"; exit 0; fi\necho "-- PostgreSQL database dump"\necho "CREATE TABLE half (" \necho "connection lost" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const good = h.t.runtime.deps.backups;
    const { config } = h.t.runtime.deps;
    const before = (await (await h.call("/api/v1/admin/db/snapshots")).json()).snapshots.length;
    h.t.runtime.deps.backups = nodeBackupStore({
      dir,
      pgDump: fake,
      postgres: { url: config.DATABASE_URL!, sql: h.t.runtime.database.sql! },
    });
    try {
      const res = await h.call("/api/v1/admin/db/backup", { method: "POST" });
      expect(res.status).toBe(500);
      expect((await res.json()).detail).toContain("pg_dump exited with 1: connection lost");
    } finally {
      h.t.runtime.deps.backups = good;
      rmSync(fake, { force: true });
    }
    expect(readdirSync(dir).filter((n) => n.endsWith(".partial"))).toEqual([]);
    expect((await (await h.call("/api/v1/admin/db/snapshots")).json()).snapshots.length).toBe(before);
  });

  it("an aborted dump leaves no archive and no .partial", async () => {
    const store = h.t.runtime.deps.backups!;
    const controller = new AbortController();
    const pending = store.writeBackup("cb-20000101T000001000Z", controller.signal);
    setTimeout(() => controller.abort(), 1);
    await expect(pending).rejects.toThrow();
    expect(readdirSync(dir).filter((n) => n.startsWith("cb-20000101T000001000Z"))).toEqual([]);
  });
});

describe("PGlite backup", () => {
  it("dumps the embedded data directory into a verified archive that loads back with the same rows", async () => {
    const pdir = mkdtempSync(join(tmpdir(), "svc-pglite-backup-"));
    const db = new PGlite();
    try {
      await db.exec(
        "create table samples (id int primary key, v text); insert into samples select g, 'v' || g from generate_series(1, 500) g;",
      );
      const store = nodeBackupStore({ dir: pdir, pglite: db });
      const archive = await store.writeBackup("cb-20260101T000000000Z");
      expect(archive.method).toBe("pglite");
      expect(archive.filename).toBe("cb-20260101T000000000Z.tar.gz");
      expect(existsSync(join(pdir, archive.filename))).toBe(true);
      const file = await store.openArchive(archive.filename);
      const blob = await new Response(file!.body).blob();
      expect(
        createHash("sha256")
          .update(Buffer.from(await blob.arrayBuffer()))
          .digest("hex"),
      ).toBe(archive.sha256);
      const restored = new PGlite({ loadDataDir: blob });
      const { rows } = await restored.query<{ n: number; s: string }>("select count(*)::int as n, max(v) as s from samples");
      expect(rows[0]).toEqual({ n: 500, s: "v99" });
      await restored.close();
    } finally {
      await db.close();
      rmSync(pdir, { recursive: true, force: true });
    }
  }, 60_000);
});
