// The Node-only half of database backups (Deps.backups): dumping the database into a gzip archive in
// the backup directory and reading archives back. The verbs (backups.ts) record what it wrote in
// db_backups; on the edge the capability is absent and the routes answer 503.

import type { OutboundPolicy } from "../../domain/net/outbound-policy.ts";
import { ApiError } from "../../errors.ts";
import { JOBS_SCOPE } from "../jobs/scope.ts";

/** Backups are the administrators' (the scope of the jobs they appear among). */
export const BACKUPS_SCOPE = JOBS_SCOPE;

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

/** Where archives are copied after a verified local backup (any S3-compatible store, path-style). */
export interface S3Target {
  endpoint: string | null;
  region: string;
  bucket: string;
  prefix: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** The outbound policy each connection's resolved address is judged by. */
  policy: OutboundPolicy;
}

/** An S3 store's refusal or unreachability, with the store's own message. */
export class S3Error extends Error {
  override name = "S3Error";
}

/** What a snapshot bundles beyond the dump and the uploads. */
export interface SnapshotRequest {
  /** The product version, recorded in the manifest. */
  version: string;
  /** The id of the vault's current key (the manifest records it; the key on disk must match it). */
  vaultKeyId: string | null;
  /** Bundle the vault key itself (only when the operator asked, with the confirmation headers). */
  includeVaultKey: boolean;
}

export type ArchiveKind = "backup" | "snapshot";

/** Snapshots are named cb-snapshot-<ts>.tar.gz; everything else we write is a backup. */
export const archiveKind = (filename: string): ArchiveKind => (filename.startsWith("cb-snapshot-") ? "snapshot" : "backup");

export interface BackupStore {
  /** The backup directory (absolute). */
  readonly dir: string;
  /**
   * Dumps the database into `<stem>.sql.gz` (pg_dump) or `<stem>.tar.gz` (PGlite's data directory);
   * a failed or aborted dump leaves no archive (its .partial is removed).
   */
  writeBackup(stem: string, signal?: AbortSignal): Promise<WrittenArchive>;
  /** A snapshot `<stem>.tar.gz` (runtime/backups/snapshot.ts): the dump, the uploads, the manifest, the vault key when asked. */
  writeSnapshot(stem: string, request: SnapshotRequest, signal?: AbortSignal): Promise<WrittenArchive>;
  /** An archive's bytes, or null when the file is gone. `filename` must already be validated by the caller. */
  openArchive(filename: string): Promise<{ size: number; body: ReadableStream<Uint8Array> } | null>;
  /** Deletes a local archive and its checksum file (retention). */
  removeArchive(filename: string): Promise<void>;
  /** Uploads a local archive to `<prefix><filename>`; answers the key. Throws S3Error. */
  upload(target: S3Target, filename: string): Promise<string>;
  /** Checks the bucket answers a listing of the prefix with the credentials. Throws S3Error. */
  testS3(target: S3Target): Promise<void>;
  /** Deletes all but the `keep` newest archives of `kind` under the prefix; answers the deleted keys. Throws S3Error. */
  pruneS3(target: S3Target, keep: number, kind: ArchiveKind): Promise<string[]>;
  /** Removes leftover `*.partial` files (from an interrupted backup); answers how many. */
  removeStale(): Promise<number>;
}

/** Archive names we write and accept: cb-<timestamp>.sql.gz (pg_dump) / .tar.gz (PGlite data dir). */
export const ARCHIVE_NAME = /^cb-(?:snapshot-)?\d{8}T\d{6}(?:\d{3})?Z\.(?:sql\.gz|tar\.gz)$/;

/** cb-20261125T074500123Z (cb-snapshot-... for a snapshot), from a date (UTC, millisecond precision so two backups in a second differ). */
export function archiveStem(now: Date, kind: ArchiveKind = "backup"): string {
  return `cb-${kind === "snapshot" ? "snapshot-" : ""}${now.toISOString().replace(/[-:.]/g, "")}`;
}

export function requireStore(store: BackupStore | undefined): BackupStore {
  if (!store)
    throw new ApiError(
      "SERVICE_NOT_READY",
      "Backups need the Node server (pg_dump or the embedded database's dump); this deployment has no backup capability: its database provider takes its backups.",
    );
  return store;
}
