// /admin/db (catalogue group admin-db, admin only): database health, a backup or a snapshot taken now,
// the list of archives, and (ours, not in the catalogue) the download of one archive. docs/backups.md.
import type { Hono } from "hono";
import {
  BackupFileParam,
  BackupSettings,
  BackupSettingsPut,
  BackupTaken,
  BackupTestResult,
  DbHealth,
  SnapshotBody,
  SnapshotList,
  SnapshotTaken,
} from "../../../shared/schemas/backups.ts";
import { dbHealth, listBackups, readBackup, takeBackup } from "../../../shared/verbs/backups/backups.ts";
import { readBackupSettings, testBackupTarget, updateBackupSettings } from "../../../shared/verbs/backups/settings.ts";
import type { VerbContext } from "../../../shared/verbs/verb-context.ts";
import { confirmationDoc, confirmed } from "../../confirmation.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

/** Bundling the vault key is high-impact: whoever holds the archive then opens every sealed secret in it. */
const SNAPSHOT_WITH_VAULT_KEY = { action: "SNAPSHOT_WITH_VAULT_KEY" } as const;

export function dbRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/admin/settings/backup",
      tag: "admin-db",
      scope: readBackupSettings.scope,
      summary: "Backup settings: the S3 target (secret key as backup_s3_secret_key_set), retention counts, schedule",
      response: { schema: BackupSettings },
    },
    async (c, { reply }) => reply(await readBackupSettings({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "put",
      path: "/api/v1/admin/settings/backup",
      tag: "admin-db",
      scope: updateBackupSettings.scope,
      summary: "Change the backup settings (only the keys given change)",
      description:
        'PATCH semantics: absent keeps; "" clears bucket, endpoint and access key id; backup_s3_secret_key: a string stores it sealed, "" removes it, null or absent keeps it. The endpoint URL must pass the outbound policy. backup_schedule is a five-field cron read in UTC (null disables scheduled backups). backup_age_recipient is not supported (no age implementation here).',
      body: BackupSettingsPut,
      response: { schema: BackupSettings },
      errors: [503],
    },
    async (c, { body, reply }) => reply(await updateBackupSettings({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/settings/backup/test",
      tag: "admin-db",
      scope: testBackupTarget.scope,
      summary: "Check the S3 target with the stored settings (lists one key under the prefix)",
      description:
        '400 "S3 bucket not configured" without a bucket; 502 with the store\'s message when it refuses or cannot be reached; 503 on the edge.',
      response: { schema: BackupTestResult },
      errors: [400, 502, 503],
    },
    async (c, { reply }) => reply(await testBackupTarget({ ctx: verbContext(c), input: { store: c.get("deps").backups } })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/admin/db/health",
      tag: "admin-db",
      scope: dbHealth.scope,
      summary: "Database health: dialect, migration level, size, connections, the newest backup",
      response: { schema: DbHealth },
    },
    async (c, { reply }) => {
      const deps = c.get("deps");
      return reply(
        await dbHealth({ ctx: verbContext(c), input: { kind: deps.database.kind, backupsAvailable: deps.backups !== undefined } }),
      );
    },
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/db/backup",
      tag: "admin-db",
      scope: takeBackup.scope,
      summary: "Take a database backup now (pg_dump | gzip, or the embedded database's dump) and verify it",
      description:
        "Runs to the end before answering. The archive is written to <name>.partial, fsynced, renamed, read back and its SHA-256 compared; only then is it recorded (and listed). Recorded as a db_backup job run. 503 where this process has no backup capability (the edge); 500 with the reason when the dump fails (nothing is recorded).",
      response: { schema: BackupTaken },
      errors: [500, 503],
    },
    async (c, { reply }) =>
      reply(await takeBackup({ ctx: verbContext(c), input: { store: c.get("deps").backups, signal: c.req.raw.signal } })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/db/snapshot",
      tag: "admin-db",
      scope: takeBackup.scope,
      summary: "Take a snapshot now: cb-snapshot-<ts>.tar.gz bundling the database dump, the uploads and a manifest",
      description: `The manifest (manifest.json, the last member) records the version, created_at, the vault key id and the size and SHA-256 of every member; the restore (npm run restore -- <archive> [--with-vault-key]) checks each. The vault key itself is bundled only with include_vault_key: true, which is high-impact: ${confirmationDoc(SNAPSHOT_WITH_VAULT_KEY)} Such a snapshot is never uploaded to S3. Recorded in the list (kind snapshot) with its own retention count (backup_local_retention_count, counted apart from backups), audited (db_snapshot). 500 with the reason when the dump fails (nothing recorded); 503 on the edge.`,
      body: SnapshotBody,
      response: { schema: SnapshotTaken },
      errors: [409, 428, 500, 503],
    },
    async (c, { body, reply }) => {
      const deps = c.get("deps");
      const includeVaultKey = body?.include_vault_key === true;
      const snapshot = { version: deps.config.version, vaultKeyId: deps.vault.keyId ?? null, includeVaultKey };
      const take = async (ctx: VerbContext) => {
        const { backup, retention } = await takeBackup({ ctx, input: { store: deps.backups, signal: c.req.raw.signal, snapshot } });
        return { ...backup, vault_key_included: includeVaultKey, retention };
      };
      if (includeVaultKey) return confirmed(c, SNAPSHOT_WITH_VAULT_KEY, reply, take);
      return reply(await take(verbContext(c)));
    },
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/admin/db/snapshots",
      tag: "admin-db",
      scope: listBackups.scope,
      summary: "The archives on disk (backups and snapshots), sorted by filename, with how to restore one",
      description:
        "An envelope, as the reference: {snapshots, restore_command, restore_note}. Plain backups are listed too (kind backup), so one list serves both.",
      response: { schema: SnapshotList },
    },
    async (c, { reply }) => reply(await listBackups({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/admin/db/backups/:filename",
      tag: "admin-db",
      scope: readBackup.scope,
      params: BackupFileParam,
      summary: "Download one recorded archive",
      description:
        "The name must be one listed by GET /admin/db/snapshots (anything else, including paths, is 404). X-Checksum-Sha256 carries the recorded SHA-256.",
      response: { contentType: "application/gzip", description: "The archive" },
      errors: [503],
    },
    async (c, { params }) => {
      // A gzip file streamed from the store, not JSON: no reply().
      const { info, size, body } = await readBackup({
        ctx: verbContext(c),
        input: { store: c.get("deps").backups, filename: params.filename },
      });
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
