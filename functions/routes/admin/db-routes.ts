// /admin/db (catalogue group admin-db, admin only): database health, a backup or a snapshot taken now,
// the list of archives, and (ours, not in the catalogue) the download of one archive. docs/backups.md.
import type { Hono } from "hono";
import * as v from "valibot";
import { dbHealth, listBackups, readBackup, takeBackup } from "../../../shared/verbs/backups/backups.ts";
import { readBackupSettings, testBackupTarget, updateBackupSettings } from "../../../shared/verbs/backups/settings.ts";
import type { VerbContext } from "../../../shared/verbs/verb-context.ts";
import { confirmationDoc, confirmed } from "../../confirmation.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BackupInfo = v.object({
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

const Retention = v.object({ local_deleted: v.array(v.string()), s3_key: v.nullable(v.string()), s3_deleted: v.array(v.string()), s3_error: v.nullable(v.string()) });

/** Bundling the vault key is high-impact: whoever holds the archive then opens every sealed secret in it. */
const SNAPSHOT_WITH_VAULT_KEY = { action: "SNAPSHOT_WITH_VAULT_KEY" } as const;

const SnapshotBody = v.optional(
  v.strictObject({
    include_vault_key: v.optional(v.pipe(v.boolean(), v.description("Bundle the vault key (vault.key) too; needs the confirmation headers. Default false: the manifest names the key id only."))),
  }),
);

const Health = v.object({
  status: v.picklist(["healthy", "degraded"]),
  dialect: v.picklist(["postgresql", "pglite"]),
  alembic_version: v.pipe(v.nullable(v.string()), v.description("The reference's slot for the schema level: here the tag of the newest applied migration.")),
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

const Settings = v.object({
  backup_s3_bucket: v.nullable(v.string()),
  backup_s3_endpoint_url: v.nullable(v.string()),
  backup_s3_access_key_id: v.nullable(v.string()),
  backup_s3_secret_key_set: v.boolean(),
  backup_s3_region: v.string(),
  backup_s3_prefix: v.string(),
  backup_s3_retention_count: v.number(),
  backup_local_retention_count: v.number(),
  backup_schedule: v.pipe(v.nullable(v.string()), v.description("Cron (minute hour day month weekday) read in UTC, followed by the db_backup job within a minute of a change; null: no scheduled backups.")),
});

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
const SettingsPut = v.strictObject({
  backup_s3_bucket: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(63), v.regex(/^$|^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "Not an S3 bucket name.")))),
  backup_s3_endpoint_url: v.optional(v.nullable(text(2048))),
  backup_s3_access_key_id: v.optional(v.nullable(text(256))),
  backup_s3_secret_key: v.optional(v.nullable(text(1024))),
  backup_s3_region: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
  backup_s3_prefix: v.optional(v.pipe(v.string(), v.maxLength(512), v.regex(/^(?:[^/].*\/)?$/, "A prefix is empty or ends with / (and does not start with one)."))),
  backup_s3_retention_count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000))),
  backup_local_retention_count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000))),
  backup_schedule: v.optional(v.nullable(text(100))),
});

export function dbRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get", path: "/api/v1/admin/settings/backup", tag: "admin-db", scope: readBackupSettings.scope,
      summary: "Backup settings: the S3 target (secret key as backup_s3_secret_key_set), retention counts, schedule",
      response: { schema: Settings },
    },
    async (c) => c.json(await readBackupSettings({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "put", path: "/api/v1/admin/settings/backup", tag: "admin-db", scope: updateBackupSettings.scope,
      summary: "Change the backup settings (only the keys given change)",
      description:
        "PATCH semantics: absent keeps; \"\" clears bucket, endpoint and access key id; backup_s3_secret_key: a string stores it sealed, \"\" removes it, null or absent keeps it. The endpoint URL must pass the outbound policy. backup_schedule is a five-field cron read in UTC (null disables scheduled backups). backup_age_recipient is not supported (no age implementation here).",
      body: SettingsPut, response: { schema: Settings }, errors: [503],
    },
    async (c, { body }) => c.json(await updateBackupSettings({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/admin/settings/backup/test", tag: "admin-db", scope: testBackupTarget.scope,
      summary: "Check the S3 target with the stored settings (lists one key under the prefix)",
      description: "400 \"S3 bucket not configured\" without a bucket; 502 with the store's message when it refuses or cannot be reached; 503 on the edge.",
      response: { schema: v.object({ status: v.literal("ok"), bucket: v.string(), endpoint: v.nullable(v.string()) }) },
      errors: [400, 502, 503],
    },
    async (c) => c.json(await testBackupTarget({ ctx: verbContext(c), input: { store: c.get("deps").backups } })),
  );

  route(
    app,
    {
      method: "get", path: "/api/v1/admin/db/health", tag: "admin-db", scope: dbHealth.scope,
      summary: "Database health: dialect, migration level, size, connections, the newest backup",
      response: { schema: Health },
    },
    async (c) => {
      const deps = c.get("deps");
      return c.json(await dbHealth({ ctx: verbContext(c), input: { kind: deps.database.kind, backupsAvailable: deps.backups !== undefined } }));
    },
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/admin/db/backup", tag: "admin-db", scope: takeBackup.scope,
      summary: "Take a database backup now (pg_dump | gzip, or the embedded database's dump) and verify it",
      description:
        "Runs to the end before answering. The archive is written to <name>.partial, fsynced, renamed, read back and its SHA-256 compared; only then is it recorded (and listed). Recorded as a db_backup job run. 503 where this process has no backup capability (the edge); 500 with the reason when the dump fails (nothing is recorded).",
      response: {
        schema: v.object({
          status: v.literal("ok"),
          backup: v.object({ ...BackupInfo.entries, path: v.string() }),
          retention: Retention,
        }),
      },
      errors: [500, 503],
    },
    async (c) => c.json(await takeBackup({ ctx: verbContext(c), input: { store: c.get("deps").backups, signal: c.req.raw.signal } })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/admin/db/snapshot", tag: "admin-db", scope: takeBackup.scope,
      summary: "Take a snapshot now: cb-snapshot-<ts>.tar.gz bundling the database dump, the uploads and a manifest",
      description:
        `The manifest (manifest.json, the last member) records the version, created_at, the vault key id and the size and SHA-256 of every member; the restore (npm run restore -- <archive> [--with-vault-key]) checks each. The vault key itself is bundled only with include_vault_key: true, which is high-impact: ${confirmationDoc(SNAPSHOT_WITH_VAULT_KEY)} Such a snapshot is never uploaded to S3. Recorded in the list (kind snapshot) with its own retention count (backup_local_retention_count, counted apart from backups), audited (db_snapshot). 500 with the reason when the dump fails (nothing recorded); 503 on the edge.`,
      body: SnapshotBody,
      response: { schema: v.object({ ...BackupInfo.entries, path: v.string(), vault_key_included: v.boolean(), retention: Retention }) },
      errors: [409, 428, 500, 503],
    },
    async (c, { body }) => {
      const deps = c.get("deps");
      const includeVaultKey = body?.include_vault_key === true;
      const snapshot = { version: deps.config.version, vaultKeyId: deps.vault.keyId ?? null, includeVaultKey };
      const take = async (ctx: VerbContext) => {
        const { backup, retention } = await takeBackup({ ctx, input: { store: deps.backups, signal: c.req.raw.signal, snapshot } });
        return { ...backup, vault_key_included: includeVaultKey, retention };
      };
      if (includeVaultKey) return confirmed(c, SNAPSHOT_WITH_VAULT_KEY, take);
      return c.json(await take(verbContext(c)));
    },
  );

  route(
    app,
    {
      method: "get", path: "/api/v1/admin/db/snapshots", tag: "admin-db", scope: listBackups.scope,
      summary: "The archives on disk (backups and snapshots), sorted by filename, with how to restore one",
      description: "An envelope, as the reference: {snapshots, restore_command, restore_note}. Plain backups are listed too (kind backup), so one list serves both.",
      response: { schema: v.object({ snapshots: v.array(BackupInfo), restore_command: v.string(), restore_note: v.string() }) },
    },
    async (c) => c.json(await listBackups({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get", path: "/api/v1/admin/db/backups/:filename", tag: "admin-db", scope: readBackup.scope,
      params: v.object({ filename: v.pipe(v.string(), v.maxLength(100)) }),
      summary: "Download one recorded archive",
      description: "The name must be one listed by GET /admin/db/snapshots (anything else, including paths, is 404). X-Checksum-Sha256 carries the recorded SHA-256.",
      response: { contentType: "application/gzip", description: "The archive" },
      errors: [503],
    },
    async (c, { params }) => {
      const { info, size, body } = await readBackup({ ctx: verbContext(c), input: { store: c.get("deps").backups, filename: params.filename } });
      return new Response(body, {
        status: 200,
        headers: {
          "Content-Type": "application/gzip",
          "Content-Length": String(size),
          "Content-Disposition": `attachment; filename="${info.filename}"`,
          "X-Checksum-Sha256": info.sha256,
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    },
  );
}
