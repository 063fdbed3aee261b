// PGlite lets two processes open one data directory and then silently diverge, so the all-in-one
// process holds an exclusive lock file in DATA_DIR and a second opener is refused with a clear message.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock (reclaiming a stale one left by a dead process); returns the release function. */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, ".lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number(readFileSync(file, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid))
        throw new DataDirLockedError(
          `DATA_DIR ${dir} is in use by process ${pid}; only one process may open the embedded database (set DATABASE_URL to share PostgreSQL instead)`,
        );
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`could not take the lock on DATA_DIR ${dir}`);
}
