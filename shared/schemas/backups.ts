// [admin-db] request and response shapes of /admin/db* and /admin/settings/backup*: database health,
// backups and snapshots, the archive list, the backup settings (docs/backups.md).
import * as v from "valibot";

export const BackupInfo = v.object({
  filename: v.string(),
  kind: v.string(),
  size_mb: v.number(),
  size_bytes: v.number(),
  sha256: v.string(),
  method: v.string(),
  created_at: v.string(),
  verified_at: v.nullable(v.string()),
  s3_key: v.nullable(v.string()),
  trigger: v.string(),
});

export const Retention = v.object({
  local_deleted: v.array(v.string()),
  s3_key: v.nullable(v.string()),
  s3_deleted: v.array(v.string()),
  s3_error: v.nullable(v.string()),
});

export const SnapshotBody = v.optional(
  v.strictObject({
    include_vault_key: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "Bundle the vault key (vault.key) too; needs the confirmation headers. Default false: the manifest names the key id only.",
        ),
      ),
    ),
  }),
);

export const DbHealth = v.object({
  status: v.picklist(["healthy", "degraded"]),
  dialect: v.picklist(["postgresql", "pglite"]),
  alembic_version: v.pipe(
    v.nullable(v.string()),
    v.description("The reference's slot for the schema level: here the tag of the newest applied migration."),
  ),
  migration_level: v.number(),
  migration_expected: v.number(),
  timescaledb_available: v.boolean(),
  db_size_mb: v.number(),
  connections_active: v.number(),
  connections_max: v.number(),
  backup_last_at: v.nullable(v.string()),
  backup_last_filename: v.nullable(v.string()),
  backup_last_size_mb: v.nullable(v.number()),
  backups_available: v.pipe(v.boolean(), v.description("Whether this process can take backups (the Node server); false on the edge.")),
});

export const BackupSettings = v.object({
  backup_s3_bucket: v.nullable(v.string()),
  backup_s3_endpoint_url: v.nullable(v.string()),
  backup_s3_access_key_id: v.nullable(v.string()),
  backup_s3_secret_key_set: v.boolean(),
  backup_s3_region: v.string(),
  backup_s3_prefix: v.string(),
  backup_s3_retention_count: v.number(),
  backup_local_retention_count: v.number(),
  backup_schedule: v.pipe(
    v.nullable(v.string()),
    v.description(
      "Cron (minute hour day month weekday) read in UTC, followed by the db_backup job within a minute of a change; null: no scheduled backups.",
    ),
  ),
});

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
export const BackupSettingsPut = v.strictObject({
  backup_s3_bucket: v.optional(
    v.nullable(v.pipe(v.string(), v.maxLength(63), v.regex(/^$|^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "Not an S3 bucket name."))),
  ),
  backup_s3_endpoint_url: v.optional(v.nullable(text(2048))),
  backup_s3_access_key_id: v.optional(v.nullable(text(256))),
  backup_s3_secret_key: v.optional(v.nullable(text(1024))),
  backup_s3_region: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
  backup_s3_prefix: v.optional(
    v.pipe(v.string(), v.maxLength(512), v.regex(/^(?:[^/].*\/)?$/, "A prefix is empty or ends with / (and does not start with one).")),
  ),
  backup_s3_retention_count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000))),
  backup_local_retention_count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000))),
  backup_schedule: v.optional(v.nullable(text(100))),
});

export const BackupTestResult = v.object({ status: v.literal("ok"), bucket: v.string(), endpoint: v.nullable(v.string()) });
export const BackupTaken = v.object({
  status: v.literal("ok"),
  backup: v.object({ ...BackupInfo.entries, path: v.string() }),
  retention: Retention,
});
export const SnapshotTaken = v.object({ ...BackupInfo.entries, path: v.string(), vault_key_included: v.boolean(), retention: Retention });
export const SnapshotList = v.object({ snapshots: v.array(BackupInfo), restore_command: v.string(), restore_note: v.string() });
export const BackupFileParam = v.object({ filename: v.pipe(v.string(), v.maxLength(100)) });
