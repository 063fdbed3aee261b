// Database backups (issue 15 item 2): health, a backup taken now, the list of archives and reading one
// back. The dump runs outside any transaction through Deps.backups (Node); the archive is recorded in
// db_backups only once it is complete and verified, with its audit entry and a job_runs row
// (job db_backup) so GET /admin/jobs shows it. Where Deps.backups is absent (the edge) they answer 503.
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import journal from "../../../migrations/meta/_journal.json" with { type: "json" };
import { type Db, queryRows } from "../../db/database.ts";
import { readMigrationLevel } from "../../db/migration-level.ts";
import { dbBackups } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { endRun, startRun } from "../jobs/job-runs.ts";
import type { JobTrigger } from "../jobs/job-runs.ts";
import { vaultOf, type VerbContext } from "../verb-context.ts";
import { defineRead, defineVerb } from "../verb.ts";
import type { Vault } from "../../vault/vault.ts";
import { readBackupSettingsRow, readS3Target } from "./settings.ts";
import {
  ARCHIVE_NAME,
  type ArchiveKind,
  archiveKind,
  archiveStem,
  type SnapshotRequest,
  BACKUPS_SCOPE,
  type BackupStore,
  requireStore,
  S3Error,
  type WrittenArchive,
} from "./store.ts";

export const RESTORE_COMMAND = "npm run restore -- <archive>";
export const RESTORE_NOTE =
  "Restore is an offline operation: stop the server, run the restore command with the archive's path (it verifies the archive's checksum first and refuses a corrupt one), then start the server again. See docs/backups.md.";

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 100) / 100;

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
export const dbHealth = defineRead<{ kind: "postgres" | "pglite"; backupsAvailable: boolean }, DbHealth>(
  { scope: BACKUPS_SCOPE },
  async (ctx, input) => {
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
  },
);

const recordBackup = defineVerb<{ archive: WrittenArchive; trigger: JobTrigger }, Row>(
  { scope: BACKUPS_SCOPE },
  async (s, { archive, trigger }) => {
    const kind = archiveKind(archive.filename);
    const [row] = await s.tx
      .insert(dbBackups)
      .values({
        kind,
        filename: archive.filename,
        size_bytes: archive.size_bytes,
        sha256: archive.sha256,
        method: archive.method,
        verified_at: archive.verified_at,
        manifest: archive.manifest,
        trigger,
      })
      .returning();
    const snapshot = archive.manifest.snapshot as { vault_key_included?: boolean } | undefined;
    s.audit({
      action: kind === "snapshot" ? "db_snapshot" : "db_backup",
      category: "settings",
      level: snapshot?.vault_key_included ? "warning" : "info",
      entity_type: "db_backup",
      entity_id: row!.id,
      diff: {
        filename: archive.filename,
        size_bytes: archive.size_bytes,
        method: archive.method,
        sha256: archive.sha256,
        ...(snapshot ? { vault_key_included: snapshot.vault_key_included === true } : {}),
      },
    });
    return row!;
  },
);

const recordUpload = defineVerb<{ id: number; key: string }, void>({ scope: BACKUPS_SCOPE }, async (s, { id, key }) => {
  await s.tx.update(dbBackups).set({ s3_key: key, s3_uploaded_at: s.now }).where(eq(dbBackups.id, id));
});

/** Marks all but the `keep` newest present archives of `kind` deleted; answers their names (the files go next). */
const markExpired = defineVerb<{ keep: number; kind: ArchiveKind }, string[]>({ scope: BACKUPS_SCOPE }, async (s, { keep, kind }) => {
  const present = await s.tx
    .select({ id: dbBackups.id, filename: dbBackups.filename })
    .from(dbBackups)
    .where(and(isNull(dbBackups.deleted_at), eq(dbBackups.kind, kind)))
    .orderBy(desc(dbBackups.created_at), desc(dbBackups.id));
  const doomed = present.slice(keep);
  if (doomed.length === 0) return [];
  await s.tx
    .update(dbBackups)
    .set({ deleted_at: s.now })
    .where(
      inArray(
        dbBackups.id,
        doomed.map((d) => d.id),
      ),
    );
  s.audit({
    action: "db_backup_retention",
    category: "settings",
    entity_type: "db_backup",
    diff: { kind, deleted: doomed.map((d) => d.filename), kept: keep },
  });
  return doomed.map((d) => d.filename);
});

export interface AfterBackup {
  local_deleted: string[];
  s3_key: string | null;
  s3_deleted: string[];
  s3_error: string | null;
}

/**
 * After a verified archive: the local retention (rows get deleted_at, then the files go), then the S3
 * copy and the S3 retention when a bucket is configured. An S3 failure does not undo the local backup:
 * it is reported (s3_error) and recorded in the run's detail.
 */
async function afterBackup(ctx: VerbContext, store: BackupStore, vault: Vault, row: Row, withVaultKey: boolean): Promise<AfterBackup> {
  const settings = await readBackupSettingsRow(ctx.db);
  const kind = archiveKind(row.filename);
  const local_deleted = await markExpired({ ctx, input: { keep: settings.backup_local_retention_count, kind } });
  for (const name of local_deleted) await store.removeArchive(name);
  const out: AfterBackup = { local_deleted, s3_key: null, s3_deleted: [], s3_error: null };
  try {
    const found = await readS3Target(ctx.db, vault);
    if (!found) return out;
    // The key beside the secrets it opens, in a bucket: that is what the vault exists to prevent.
    if (withVaultKey) {
      out.s3_error = "not uploaded: this snapshot holds the vault key, which never leaves this machine through S3";
      return out;
    }
    out.s3_key = await store.upload(found.target, row.filename);
    await recordUpload({ ctx, input: { id: row.id, key: out.s3_key } });
    out.s3_deleted = await store.pruneS3(found.target, found.settings.backup_s3_retention_count, kind);
  } catch (e) {
    if (!(e instanceof S3Error)) throw e;
    out.s3_error = e.message;
  }
  return out;
}

export interface BackupOutcome {
  backup: BackupInfo & { path: string };
  retention: AfterBackup;
  /** The job run's detail (job_runs.detail of db_backup). */
  detail: Record<string, unknown>;
}

/**
 * The body of every backup, whoever asks (POST /admin/db/backup, the scheduled db_backup job): dumps
 * through the store (outside any transaction), records the verified archive, applies retention and
 * copies it to S3. Throws when the dump fails (no archive and no db_backups row are left).
 */
export async function backupNow(
  ctx: VerbContext,
  input: BackupInput & { store: BackupStore; trigger: JobTrigger },
): Promise<BackupOutcome> {
  const { store, snapshot } = input;
  const archive = snapshot
    ? await store.writeSnapshot(archiveStem(ctx.clock.now(), "snapshot"), snapshot, input.signal)
    : await store.writeBackup(archiveStem(ctx.clock.now()), input.signal);
  const row = await recordBackup({ ctx, input: { archive, trigger: input.trigger } });
  const after = await afterBackup(ctx, store, vaultOf(ctx), row, snapshot?.includeVaultKey === true);
  const [fresh] = await ctx.db.select().from(dbBackups).where(eq(dbBackups.id, row.id));
  return {
    backup: { ...present(fresh!), path: `${store.dir}/${row.filename}` },
    retention: after,
    detail: { kind: row.kind, filename: archive.filename, bytes: archive.size_bytes, method: archive.method, ...after },
  };
}

/**
 * POST /admin/db/backup: a backup now (backupNow), recorded as a job_runs row (db_backup) ending
 * success with bytes and method, or failed with the reason.
 */
export interface BackupInput {
  signal?: AbortSignal | undefined;
  /** A snapshot (dump, uploads, manifest, the vault key when asked) rather than a plain backup. */
  snapshot?: SnapshotRequest | undefined;
}

export const takeBackup = defineRead<
  BackupInput & { store: BackupStore | undefined; trigger?: JobTrigger },
  { status: "ok"; backup: BackupInfo & { path: string }; retention: AfterBackup }
>({ scope: BACKUPS_SCOPE }, async (ctx, input) => {
  const store = requireStore(input.store);
  const trigger = input.trigger ?? "manual";
  const run = await startRun({ ctx, input: { job: "db_backup", trigger } });
  let done: BackupOutcome;
  try {
    done = await backupNow(ctx, { ...input, store, trigger });
  } catch (e) {
    const message = (e as Error).message;
    await endRun({ ctx, input: { id: run.id, outcome: "failed", detail: {}, error: message } });
    throw new ApiError("INTERNAL_SERVER_ERROR", `${input.snapshot ? "Snapshot" : "Backup"} failed: ${message}`);
  }
  await endRun({ ctx, input: { id: run.id, outcome: "success", detail: done.detail } });
  return { status: "ok", backup: done.backup, retention: done.retention };
});

/** GET /admin/db/snapshots: every archive still on disk (backups and snapshots), sorted by filename. */
export const listBackups = defineRead<undefined, { snapshots: BackupInfo[]; restore_command: string; restore_note: string }>(
  { scope: BACKUPS_SCOPE },
  async (ctx) => {
    const rows = await ctx.db.select().from(dbBackups).where(isNull(dbBackups.deleted_at)).orderBy(dbBackups.filename);
    return { snapshots: rows.map(present), restore_command: RESTORE_COMMAND, restore_note: RESTORE_NOTE };
  },
);

/** An archive's bytes for download: the name must match our pattern and a recorded, present row. */
export const readBackup = defineRead<
  { store: BackupStore | undefined; filename: string },
  { info: BackupInfo; size: number; body: ReadableStream<Uint8Array> }
>({ scope: BACKUPS_SCOPE }, async (ctx, input) => {
  const store = requireStore(input.store);
  if (!ARCHIVE_NAME.test(input.filename)) throw ApiError.notFound("Backup", input.filename);
  const [row] = await ctx.db
    .select()
    .from(dbBackups)
    .where(and(eq(dbBackups.filename, input.filename), isNull(dbBackups.deleted_at)))
    .limit(1);
  if (!row) throw ApiError.notFound("Backup", input.filename);
  const file = await store.openArchive(row.filename);
  if (!file) throw ApiError.notFound("Backup", input.filename);
  return { info: present(row), size: file.size, body: file.body };
});
