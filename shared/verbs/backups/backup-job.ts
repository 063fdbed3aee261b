// The scheduled backup (job db_backup): the sidecar's scheduler fires it on `backup_schedule` (the
// backup settings; a changed schedule is picked up without a restart, null disables it) and it takes
// the same backup as POST /admin/db/backup (backupNow: dump, record, retention, S3). The runner records
// the job_runs row, as for every job; POST /admin/db/backup records its own under the same job name.
import type { JobDefinition } from "../jobs/job.ts";
import { backupNow } from "./backups.ts";
import { BACKUP_DEFAULTS, readBackupSettingsRow } from "./settings.ts";

export class BackupUnavailable extends Error {
  override name = "BackupUnavailable";
}

export const dbBackupJob: JobDefinition = {
  name: "db_backup",
  lockKey: "db_backup_job",
  schedule: BACKUP_DEFAULTS.backup_schedule!,
  scheduleSetting: async (db) => (await readBackupSettingsRow(db)).backup_schedule,
  description:
    "Backs up the database on backup_schedule (the backup settings), then applies the local and S3 retention and uploads to S3 when a bucket is configured, as POST /admin/db/backup does.",
  async run({ ctx, signal, deps }) {
    if (!deps?.backups)
      throw new BackupUnavailable(
        "This runner has no backup capability (only the Node server and sidecar can dump the database); the backup was not taken.",
      );
    if (!deps.vault) throw new BackupUnavailable("This runner has no vault to open the S3 credentials with; the backup was not taken.");
    const done = await backupNow({ ...ctx, vault: deps.vault }, { store: deps.backups, trigger: "schedule", signal });
    return { rows_touched: 1, detail: done.detail };
  },
};
