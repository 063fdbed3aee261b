// The Node-only half of database backups (Deps.backups): dumping the database into a gzip archive in
// the backup directory and reading archives back. The verbs (backups.ts) record what it wrote in
// db_backups; on the edge the capability is absent and the routes answer 503.

export type BackupMethod = "pg_dump" | "copy" | "pglite";

/** A complete archive: written to <name>.partial, fsynced, renamed, read back and its SHA-256 matched. */
export interface WrittenArchive {
  filename: string;
  size_bytes: number;
  sha256: string;
  method: BackupMethod;
  /** When the archive was read back and its checksum matched. */
  verified_at: Date;
  manifest: Record<string, unknown>;
}

export interface BackupStore {
  /** The backup directory (absolute). */
  readonly dir: string;
  /**
   * Dumps the database into `<stem>.sql.gz` (pg_dump) or `<stem>.tar.gz` (PGlite's data directory);
   * a failed or aborted dump leaves no archive (its .partial is removed).
   */
  writeBackup(stem: string, signal?: AbortSignal): Promise<WrittenArchive>;
  /** An archive's bytes, or null when the file is gone. `filename` must already be validated by the caller. */
  openArchive(filename: string): Promise<{ size: number; body: ReadableStream<Uint8Array> } | null>;
  /** Removes leftover `*.partial` files (from an interrupted backup); answers how many. */
  removeStale(): Promise<number>;
}

/** Archive names we write and accept: cb-<timestamp>.sql.gz (pg_dump) / .tar.gz (PGlite data dir). */
export const ARCHIVE_NAME = /^cb-(?:snapshot-)?\d{8}T\d{6}(?:\d{3})?Z\.(?:sql\.gz|tar\.gz)$/;

/** cb-20261125T074500123Z, from a date (UTC, millisecond precision so two backups in a second differ). */
export function archiveStem(now: Date): string {
  return `cb-${now.toISOString().replace(/[-:.]/g, "")}`;
}
