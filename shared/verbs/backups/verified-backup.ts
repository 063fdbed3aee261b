// "A verified backup" behind CLEAR_LAB and RESTORE_WITH_WIPE (docs/architecture.md, API contracts): the x-svc-backup-verified
// header is the operator's word; where this process can take backups (Deps.backups, the Node entries)
// the word must also be true: an archive whose checksum was read back, recent enough to be worth
// restoring, still on disk. The edge has no backups of its own (its database is backed up by its
// provider), so there the header alone counts, as the route's description says.
import { and, desc, gte, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { dbBackups } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { BACKUP_HEADER, requiredHeaders, type ConfirmationSpec } from "../confirm/confirm.ts";

/** How old the newest verified backup may be for a destructive action. */
export const VERIFIED_BACKUP_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface VerifiedBackup {
  id: number;
  filename: string;
  created_at: Date;
  verified_at: Date;
}

/** The newest verified, still-present archive taken since `since`, or null. */
export async function latestVerifiedBackup(db: Db, since: Date): Promise<VerifiedBackup | null> {
  const [row] = await db
    .select({ id: dbBackups.id, filename: dbBackups.filename, created_at: dbBackups.created_at, verified_at: dbBackups.verified_at })
    .from(dbBackups)
    .where(and(isNotNull(dbBackups.verified_at), isNull(dbBackups.deleted_at), gte(dbBackups.created_at, since)))
    .orderBy(desc(dbBackups.created_at))
    .limit(1);
  return row ? { ...row, verified_at: row.verified_at! } : null;
}

/**
 * Throws 428 CONFIRMATION_REQUIRED (reason `no_verified_backup`) when backups are available here and
 * none was verified in the last 24 hours. Answers the backup the action may name in its audit entry.
 */
export async function requireVerifiedBackup(
  db: Db,
  now: Date,
  spec: ConfirmationSpec,
  backupsAvailable: boolean,
): Promise<VerifiedBackup | null> {
  if (!backupsAvailable) return null;
  const found = await latestVerifiedBackup(db, new Date(now.getTime() - VERIFIED_BACKUP_MAX_AGE_MS));
  if (found) return found;
  throw new ApiError(
    "CONFIRMATION_REQUIRED",
    `"${spec.action}" needs a verified backup from the last 24 hours and none is recorded: take one with POST /api/v1/admin/db/backup (or /snapshot), then repeat the request with ${BACKUP_HEADER}: true.`,
    { required: requiredHeaders(spec), invalid: [BACKUP_HEADER], action: spec.action, reason: "no_verified_backup" },
  );
}
