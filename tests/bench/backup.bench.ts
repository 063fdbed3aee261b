// Backup throughput: a dedicated PostgreSQL database, migrated, with ~BACKUP_BENCH_MB (default 1024) MB
// of agent host samples made with generate_series, then the baseline `pg_dump | gzip -6 > file` against
// our backup (the same pg_dump through Node's gzip, SHA-256 while streaming, fsync, read-back
// verification) and against the COPY fallback (no pg_dump: migrations + COPY blocks, the same writer).
// Target: ours within 1.5x of the baseline. The bench database is dropped afterwards.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { nodeBackupStore } from "../../runtime/backups/node-backup-store.ts";
import { openDatabase } from "../../runtime/database.ts";
import { parseConfig } from "../../shared/config.ts";
import { applyMigrations } from "../../sidecar/startup/migrate.ts";
import { databaseUrl, PG_ADMIN_URL } from "../helpers/env.ts";
import type { BenchContext, BenchRow } from "./harness.ts";

const TARGET_MB = Number(process.env.BACKUP_BENCH_MB ?? "1024");
const MB = 1024 * 1024;

export async function run(_ctx: BenchContext): Promise<BenchRow[]> {
  const name = `cp_bench_backup_${process.pid}`;
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  const dir = mkdtempSync(join(tmpdir(), "svc-backup-bench-"));
  await admin.unsafe(`create database "${name}"`);
  const url = databaseUrl(name);
  const migrated = await openDatabase(parseConfig({ DATABASE_URL: url }));
  await applyMigrations(migrated).finally(() => migrated.provider.close());
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    // ~100 bytes per row on disk with its index; insert in batches until the target size.
    const batch = 1_000_000;
    for (let i = 0; i < 200; i++) {
      const [size] = await sql<{ bytes: string }[]>`select pg_database_size(current_database()) as bytes`;
      if (Number(size!.bytes) >= TARGET_MB * MB) break;
      await sql.unsafe(`insert into agent_host_samples (agent_id, ts, cpu_pct, mem_pct, disk_pct, load_1, net_rx_bps, net_tx_bps)
        select g % 5000, now() - make_interval(secs => g), random() * 100, random() * 100, (g % 100)::real, random() * 4,
               case when g % 10 = 0 then null else round(random() * 1e6) end, round(random() * 1e6)
        from generate_series(1, ${batch}) g`);
    }
    const [size] = await sql<{ bytes: string }[]>`select pg_database_size(current_database()) as bytes`;
    const dbMb = Number(size!.bytes) / MB;

    const baseFile = join(dir, "baseline.sql.gz");
    let t = performance.now();
    execFileSync("sh", [
      "-c",
      `pg_dump --no-owner --no-privileges --clean --if-exists --dbname "$1" | gzip -6 > "$2"`,
      "sh",
      url,
      baseFile,
    ]);
    const baseMs = performance.now() - t;
    const baseSize = statSync(baseFile).size;

    const store = nodeBackupStore({ dir, postgres: { url, sql } });
    t = performance.now();
    const archive = await store.writeBackup("cb-20260101T000000000Z");
    const oursMs = performance.now() - t;

    const copyStore = nodeBackupStore({ dir, pgDump: "/nonexistent/pg_dump", postgres: { url, sql } });
    t = performance.now();
    const copied = await copyStore.writeBackup("cb-20260101T000001000Z");
    const copyMs = performance.now() - t;
    if (copied.method !== "copy") throw new Error(`expected the COPY fallback, got ${copied.method}`);

    const row = (label: string, ms: number, size: number, extra = ""): BenchRow => ({
      name: label,
      total_ms: Math.round(ms),
      note: `db ${dbMb.toFixed(0)} MB -> archive ${(size / MB).toFixed(1)} MB, ${(dbMb / (ms / 1000)).toFixed(1)} MB/s of database${extra}`,
    });
    return [
      row("pg_dump piped to gzip -6 (baseline)", baseMs, baseSize),
      row(
        "our backup (pg_dump path, verified)",
        oursMs,
        archive.size_bytes,
        `; ${(oursMs / baseMs).toFixed(2)}x baseline (target <= 1.5x)`,
      ),
      row(
        "our backup (COPY fallback, verified)",
        copyMs,
        copied.size_bytes,
        `; ${(copyMs / baseMs).toFixed(2)}x baseline (target <= 1.5x)`,
      ),
    ];
  } finally {
    await sql.end({ timeout: 1 });
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}
