// The data directory of the all-in-one process holds the embedded database, the vault key and the
// backups: nothing in it is for another local account. PostgreSQL itself refuses a data directory that
// is group- or world-accessible; the embedded one does not check, so the entry does (private-nodefs.ts
// keeps PGlite's own files private too).
import { chmodSync, mkdirSync, statSync } from "node:fs";
import type { Logger } from "../shared/logger.ts";

/** The umask of the Node entries that write files: owner only, for every file, not chosen per file. */
export const PRIVATE_UMASK = 0o077;

/** Called first in an entry that writes under DATA_DIR (or BACKUP_DIR). */
export function keepFilesPrivate(): void {
  process.umask(PRIVATE_UMASK);
}

/** Creates `dir` 0700, or tightens an existing one that others can enter (with a warning). */
export function prepareDataDir(dir: string, logger: Pick<Logger, "warn" | "error">): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = statSync(dir).mode & 0o777;
  if ((mode & PRIVATE_UMASK) === 0) return;
  try {
    chmodSync(dir, mode & ~PRIVATE_UMASK);
  } catch (e) {
    // Not ours to change (a volume owned by another account): say so loudly, but start as before.
    logger.error("DATA_DIR is accessible to other local accounts and its mode could not be tightened: make it 0700", {
      dir,
      mode: `0${mode.toString(8)}`,
      error: (e as Error).message,
    });
    return;
  }
  logger.warn("DATA_DIR was accessible to other local accounts; its mode was tightened", {
    dir,
    from: `0${mode.toString(8)}`,
    to: `0${(mode & ~PRIVATE_UMASK).toString(8)}`,
  });
}
