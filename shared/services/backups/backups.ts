// Database backups (issue 15 item 2): health, a backup taken now, the list of archives and reading one
// back. The dump runs outside any transaction through Deps.backups (Node); the archive is recorded in
// db_backups only once it is complete and verified, with its audit entry and a job_runs row
// (job db_backup) so GET /admin/jobs shows it. Where Deps.backups is absent (the edge) they answer 503.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import journal from "../../../migrations/meta/_journal.json" with { type: "json" };
import { type Db, queryRows } from "../../db/database.ts";
import { readMigrationLevel } from "../../db/migration-level.ts";
import { dbBackups } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { JOBS_SCOPE } from "../jobs/job.ts";
import { endRun, startRun } from "../jobs/job-runs.ts";
import type { JobTrigger } from "../jobs/job-runs.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { ARCHIVE_NAME, archiveStem, type BackupStore, type WrittenArchive } from "./store.ts";

export const BACKUPS_SCOPE = JOBS_SCOPE;
export const RESTORE_COMMAND = "npm run restore -- <archive>";
export const RESTORE_NOTE =
  "Restore is an offline operation: stop the server, run the restore command with the archive's path (it verifies the archive's checksum first and refuses a corrupt one), then start the server again. See docs/backups.md.";

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 100) / 100;

export function requireStore(store: BackupStore | undefined): BackupStore {
  if (!store) throw new ApiError("SERVICE_NOT_READY", "Backups need the Node server (pg_dump or the embedded database's dump); this deployment has no backup capability: its database provider takes its backups.");
  return store;
}

export interface BackupInfo {
  filename: string;
  kind: string;
  size_mb: number;
  size_bytes: number;
  sha256: string;
  method: string;
  created_at: string;
  verified_at: string | null;
  s3_key: string | null;
  trigger: string;
}

type Row = typeof dbBackups.$inferSelect;
const present = (r: Row): BackupInfo => ({
  filename: r.filename,
  kind: r.kind,
  size_mb: mb(r.size_bytes),
  size_bytes: r.size_bytes,
  sha256: r.sha256,
  method: r.method,
  created_at: r.created_at.toISOString(),
  verified_at: r.verified_at?.toISOString() ?? null,
  s3_key: r.s3_key,
  trigger: r.trigger,
});

async function latest(db: Db): Promise<Row | undefined> {
  const [row] = await db.select().from(dbBackups).where(isNull(dbBackups.deleted_at)).orderBy(desc(dbBackups.created_at)).limit(1);
  return row;
}

export interface DbHealth {
  status: "healthy" | "degraded";
  dialect: "postgresql" | "pglite";
  alembic_version: string | null;
  migration_level: number;
  migration_expected: number;
  timescaledb_available: boolean;
  db_size_mb: number;
  connections_active: number;
  connections_max: number;
  backup_last_at: string | null;
  backup_last_filename: string | null;
  backup_last_size_mb: number | null;
  backups_available: boolean;
}

/** GET /admin/db/health: what SQL tells about the database, and the newest recorded archive. */
export const dbHealth = defineRead<{ kind: "postgres" | "pglite"; backupsAvailable: boolean }, DbHealth>({ scope: BACKUPS_SCOPE }, async (ctx, input) => {
  const level = await readMigrationLevel(ctx.db);
  const [stats] = await queryRows<{ size: string | number; active: string | number; max: string; ts: boolean }>(
    ctx.db,
    sql`select pg_database_size(current_database()) as size,
          (select count(*) from pg_stat_activity where datname = current_database()) as active,
          current_setting('max_connections') as max,
          exists (select 1 from pg_available_extensions where name = 'timescaledb') as ts`,
  );
  const last = await latest(ctx.db);
  const tag = level.applied > 0 ? (journal.entries[level.applied - 1]?.tag ?? null) : null;
  return {
    status: level.status === "ok" ? "healthy" : "degraded",
    dialect: input.kind === "pglite" ? "pglite" : "postgresql",
    alembic_version: tag,
    migration_level: level.applied,
    migration_expected: level.expected,
    timescaledb_available: Boolean(stats?.ts),
    db_size_mb: mb(Number(stats?.size ?? 0)),
    connections_active: Number(stats?.active ?? 0),
    connections_max: Number(stats?.max ?? 0),
    backup_last_at: last?.created_at.toISOString() ?? null,
    backup_last_filename: last?.filename ?? null,
    backup_last_size_mb: last ? mb(last.size_bytes) : null,
    backups_available: input.backupsAvailable,
  };
});

const recordBackup = defineVerb<{ archive: WrittenArchive; trigger: JobTrigger }, Row>({ scope: BACKUPS_SCOPE }, async (s, { archive, trigger }) => {
  const [row] = await s.tx
    .insert(dbBackups)
    .values({
      kind: "backup",
      filename: archive.filename,
      size_bytes: archive.size_bytes,
      sha256: archive.sha256,
      method: archive.method,
      verified_at: archive.verified_at,
      manifest: archive.manifest,
      trigger,
    })
    .returning();
  s.audit({ action: "db_backup", category: "settings", entity_type: "db_backup", entity_id: row!.id, diff: { filename: archive.filename, size_bytes: archive.size_bytes, method: archive.method, sha256: archive.sha256 } });
  return row!;
});

/**
 * Takes a backup now: dumps through the store (outside any transaction), then records the verified
 * archive. The run is a job_runs row (db_backup) ending success with bytes and method, or failed with
 * the reason; a failed dump leaves no archive and no db_backups row.
 */
export const takeBackup = defineRead<{ store: BackupStore | undefined; trigger?: JobTrigger; signal?: AbortSignal }, { status: "ok"; backup: BackupInfo & { path: string } }>(
  { scope: BACKUPS_SCOPE },
  async (ctx, input) => {
    const store = requireStore(input.store);
    const trigger = input.trigger ?? "manual";
    const run = await startRun({ ctx, input: { job: "db_backup", trigger } });
    let archive: WrittenArchive;
    try {
      archive = await store.writeBackup(archiveStem(ctx.clock.now()), input.signal);
    } catch (e) {
      const message = (e as Error).message;
      await endRun({ ctx, input: { id: run.id, outcome: "failed", detail: {}, error: message } });
      throw new ApiError("INTERNAL_SERVER_ERROR", `Backup failed: ${message}`);
    }
    const row = await recordBackup({ ctx, input: { archive, trigger } });
    await endRun({ ctx, input: { id: run.id, outcome: "success", detail: { filename: archive.filename, bytes: archive.size_bytes, method: archive.method } } });
    return { status: "ok", backup: { ...present(row), path: `${store.dir}/${row.filename}` } };
  },
);

/** GET /admin/db/snapshots: every archive still on disk (backups and snapshots), sorted by filename. */
export const listBackups = defineRead<undefined, { snapshots: BackupInfo[]; restore_command: string; restore_note: string }>({ scope: BACKUPS_SCOPE }, async (ctx) => {
  const rows = await ctx.db.select().from(dbBackups).where(isNull(dbBackups.deleted_at)).orderBy(dbBackups.filename);
  return { snapshots: rows.map(present), restore_command: RESTORE_COMMAND, restore_note: RESTORE_NOTE };
});

/** An archive's bytes for download: the name must match our pattern and a recorded, present row. */
export const readBackup = defineRead<{ store: BackupStore | undefined; filename: string }, { info: BackupInfo; size: number; body: ReadableStream<Uint8Array> }>(
  { scope: BACKUPS_SCOPE },
  async (ctx, input) => {
    const store = requireStore(input.store);
    if (!ARCHIVE_NAME.test(input.filename)) throw ApiError.notFound("Backup", input.filename);
    const [row] = await ctx.db.select().from(dbBackups).where(and(eq(dbBackups.filename, input.filename), isNull(dbBackups.deleted_at))).limit(1);
    if (!row) throw ApiError.notFound("Backup", input.filename);
    const file = await store.openArchive(row.filename);
    if (!file) throw ApiError.notFound("Backup", input.filename);
    return { info: present(row), size: file.size, body: file.body };
  },
);
