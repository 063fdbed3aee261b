// Backup throughput: a dedicated PostgreSQL database of ~BACKUP_BENCH_MB (default 1024) MB of telemetry
// samples made with generate_series, then the baseline `pg_dump | gzip -6 > file` against our backup
// (the same pg_dump through Node's gzip, SHA-256 while streaming, fsync, read-back verification).
// Target: ours within 1.5x of the baseline. The COPY fallback is not built (docs/backups.md), so it has
// no row. The bench database is dropped afterwards.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { nodeBackupStore } from "../../runtime/backups/node-backup-store.ts";
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
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe("create table telemetry_samples (id bigserial primary key, entity_id int not null, metric text not null, ts timestamptz not null, value double precision not null, labels jsonb)");
    // ~120 bytes per row on disk with its index; insert in batches until the target size.
    const batch = 1_000_000;
    for (let i = 0; i < 200; i++) {
      const [size] = await sql<{ bytes: string }[]>`select pg_database_size(current_database()) as bytes`;
      if (Number(size!.bytes) >= TARGET_MB * MB) break;
      await sql.unsafe(`insert into telemetry_samples (entity_id, metric, ts, value, labels)
        select g % 5000, (array['cpu','mem','disk','net_in','net_out'])[1 + g % 5], now() - make_interval(secs => g), random() * 100,
               case when g % 10 = 0 then jsonb_build_object('host', 'h' || (g % 5000)) end
        from generate_series(1, ${batch}) g`);
    }
    const [size] = await sql<{ bytes: string }[]>`select pg_database_size(current_database()) as bytes`;
    const dbMb = Number(size!.bytes) / MB;

    const baseFile = join(dir, "baseline.sql.gz");
    let t = performance.now();
    execFileSync("sh", ["-c", `pg_dump --no-owner --no-privileges --clean --if-exists --dbname "$1" | gzip -6 > "$2"`, "sh", url, baseFile]);
    const baseMs = performance.now() - t;
    const baseSize = statSync(baseFile).size;

    const store = nodeBackupStore({ dir, postgres: { url, sql } });
    t = performance.now();
    const archive = await store.writeBackup("cb-20260101T000000000Z");
    const oursMs = performance.now() - t;

    const row = (label: string, ms: number, size: number, extra = ""): BenchRow => ({
      name: label,
      total_ms: Math.round(ms),
      note: `db ${dbMb.toFixed(0)} MB -> archive ${(size / MB).toFixed(1)} MB, ${(dbMb / (ms / 1000)).toFixed(1)} MB/s of database${extra}`,
    });
    return [
      row("pg_dump piped to gzip -6 (baseline)", baseMs, baseSize),
      row("our backup (pg_dump path, verified)", oursMs, archive.size_bytes, `; ${(oursMs / baseMs).toFixed(2)}x baseline (target <= 1.5x)`),
    ];
  } finally {
    await sql.end({ timeout: 1 });
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}
