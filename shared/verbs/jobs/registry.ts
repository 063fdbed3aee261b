// The scheduled jobs (spec 6.7), in the order GET /admin/jobs lists them.
import { dbBackupJob } from "../backups/backup-job.ts";
import { serverKeyRotationJob } from "../agents/server-key-job.ts";
import { analyticsJob } from "../analytics/analytics-job.ts";
import { cveSyncJob } from "../cve/sync-job.ts";
import { certificatesJob } from "../certificates/certificates-job.ts";
import { discoveryProfilesJob } from "../discovery/profiles/scheduled-runs.ts";
import { privacyJob } from "../privacy/privacy-job.ts";
import { retentionJob } from "../retention/retention-job.ts";
import type { JobDefinition } from "./job.ts";

export const JOBS: readonly JobDefinition[] = [
  analyticsJob,
  retentionJob,
  serverKeyRotationJob,
  discoveryProfilesJob,
  privacyJob,
  cveSyncJob,
  certificatesJob,
  dbBackupJob,
];

export function findJob(name: string, jobs: readonly JobDefinition[] = JOBS): JobDefinition | undefined {
  return jobs.find((j) => j.name === name);
}
