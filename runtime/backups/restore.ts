// `npm run restore -- <archive> [--force]` (docs/backups.md): an offline restore of an archive written
// by POST /admin/db/backup. It verifies before touching anything: the archive's SHA-256 against the
// `<archive>.sha256` written beside it, and the whole gzip stream (a truncated or altered archive fails
// its CRC). Then it refuses while the server is live (the PGlite data directory lock, or other
// connections of ours on PostgreSQL) unless --force, and loads the dump:
// - PostgreSQL (.sql.gz, pg_dump plain SQL): in ONE psql transaction, drops our schemas (public and
//   drizzle, the migration record) and replays the dump; any error rolls everything back.
// - PGlite (.tar.gz, dumpDataDir): loads the tarball into a fresh directory, then swaps PGlite's files
//   in DATA_DIR for it; the replaced files are kept in DATA_DIR/.before-restore-<ts>/.
// - A snapshot (cb-snapshot-*.tar.gz): every member checked against its manifest first, then its dump
//   as above, its uploads written back, and its vault key only with --with-vault-key.
// Afterwards the archives in the backup directory are re-recorded in db_backups (the restored database
// knew only the ones older than itself).
import { spawn } from "node:child_process";
import { createReadStream, existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { constants, createGunzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import type { Config } from "../../shared/config.ts";
import { ARCHIVE_NAME, archiveKind } from "../../shared/verbs/backups/store.ts";
import { lockDataDir } from "../data-dir-lock.ts";
import { PrivateNodeFS } from "../private-nodefs.ts";
import { openDatabase } from "../database.ts";
import { vaultKeyPath } from "../vault-key.ts";
import { sha256File } from "./node-backup-store.ts";
import {
  readSnapshotManifest,
  type SnapshotManifest,
  type SnapshotMember,
  SnapshotRefused,
  unpackSnapshot,
  VAULT_KEY_MEMBER,
} from "./snapshot.ts";

export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

export interface RestoreOptions {
  archive: string;
  force?: boolean;
  /** A snapshot's vault.key is written to DATA_DIR/vault.key only with this (--with-vault-key). */
  withVaultKey?: boolean;
  /** The psql binary (PATH lookup by default). */
  psql?: string;
  log?: (line: string) => void;
}

/** Verifies the archive: its recorded checksum and the integrity of the whole gzip stream. */
export async function verifyArchive(path: string): Promise<{ sha256: string; size: number; kind: "sql" | "pglite" | "snapshot" }> {
  const name = basename(path);
  if (!ARCHIVE_NAME.test(name))
    throw new RestoreRefused(`${name} is not an archive name we write (cb-<timestamp>.sql.gz or .tar.gz, cb-snapshot-<timestamp>.tar.gz).`);
  if (!existsSync(path)) throw new RestoreRefused(`${path} does not exist.`);
  const sidecar = `${path}.sha256`;
  if (!existsSync(sidecar))
    throw new RestoreRefused(`${sidecar} is missing: without the recorded checksum the archive cannot be verified.`);
  const recorded = (await readFile(sidecar, "utf8")).trim().split(/\s+/)[0] ?? "";
  const actual = await sha256File(path);
  if (actual !== recorded)
    throw new RestoreRefused(`${name} is corrupt: its SHA-256 is ${actual}, the recorded one ${recorded}. Nothing was changed.`);
  try {
    await pipeline(createReadStream(path), createGunzip(), new Writable({ write: (_c, _e, cb) => cb() }));
  } catch (e) {
    throw new RestoreRefused(`${name} is not a complete gzip stream (${(e as Error).message}). Nothing was changed.`);
  }
  return {
    sha256: actual,
    size: (await stat(path)).size,
    kind: archiveKind(name) === "snapshot" ? "snapshot" : name.endsWith(".sql.gz") ? "sql" : "pglite",
  };
}

async function restorePostgres(config: Config, path: string, options: RestoreOptions): Promise<void> {
  const url = config.DATABASE_URL!;
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [live] = await client<
      { n: number }[]
    >`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'infra-control-plane' and pid <> pg_backend_pid()`;
    if (live!.n > 0 && !options.force)
      throw new RestoreRefused(
        `${live!.n} connection(s) of a running server are open on this database: stop the server first (or pass --force).`,
      );
  } finally {
    await client.end({ timeout: 1 });
  }
  await new Promise<void>((done, fail) => {
    const child = spawn(
      options.psql ?? "psql",
      ["--quiet", "--no-psqlrc", "-v", "ON_ERROR_STOP=1", "--single-transaction", "--dbname", url],
      { stdio: ["pipe", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.on("error", fail);
    child.on("close", (code) =>
      code === 0 ? done() : fail(new Error(`psql exited with ${code}; the transaction was rolled back, nothing changed: ${stderr.trim()}`)),
    );
    child.stdin.write("DROP SCHEMA IF EXISTS drizzle CASCADE;\nDROP SCHEMA IF EXISTS public CASCADE;\nCREATE SCHEMA public;\n");
    pipeline(createReadStream(path), createGunzip(), child.stdin).catch(fail);
  });
}

/** Loads a dump (a plain SQL one into PostgreSQL, a PGlite data directory into DATA_DIR). */
async function restoreDump(
  config: Config,
  path: string,
  kind: "sql" | "pglite",
  options: RestoreOptions,
  log: (line: string) => void,
): Promise<void> {
  if (kind === "sql") {
    if (!config.DATABASE_URL)
      throw new RestoreRefused("This is a PostgreSQL (pg_dump or COPY) archive: set DATABASE_URL to the database to restore into.");
    await restorePostgres(config, path, options);
    log("PostgreSQL: schemas public and drizzle dropped and the dump loaded in one transaction");
  } else {
    if (config.DATABASE_URL)
      throw new RestoreRefused("This is an embedded-database (PGlite) archive: unset DATABASE_URL to restore it into DATA_DIR.");
    await restorePglite(config, path, options);
  }
}

/**
 * A snapshot: unpacked into a private staging directory with every member checked against the
 * manifest (nothing is touched before that), then the dump restored as above, the uploads written
 * back into `uploads` (rows missing or different from the archive's files), and the vault key into
 * DATA_DIR/vault.key only with --with-vault-key (an existing different key is moved aside).
 */
async function restoreSnapshot(config: Config, path: string, options: RestoreOptions, log: (line: string) => void): Promise<void> {
  const staging = join(resolve(config.DATA_DIR), `.restore-snapshot-${Date.now()}`);
  try {
    let manifest: SnapshotManifest;
    try {
      manifest = await unpackSnapshot(path, staging);
    } catch (e) {
      if (e instanceof SnapshotRefused) throw new RestoreRefused(`${basename(path)}: ${e.message}. Nothing was changed.`);
      throw e;
    }
    log(
      `verified ${manifest.members.length} member(s) against the manifest (version ${manifest.version}, vault key id ${manifest.vault_key_id ?? "none"})`,
    );
    const names = new Set(manifest.members.map((m) => m.name));
    const dump = names.has("db.sql.gz") ? "db.sql.gz" : names.has("db.tar.gz") ? "db.tar.gz" : null;
    if (!dump) throw new RestoreRefused("The snapshot has no database dump (db.sql.gz or db.tar.gz). Nothing was changed.");
    if (options.withVaultKey && !names.has(VAULT_KEY_MEMBER))
      throw new RestoreRefused(
        "--with-vault-key: this snapshot holds no vault key (it was taken without include_vault_key). Nothing was changed.",
      );
    await restoreDump(config, join(staging, dump), dump === "db.sql.gz" ? "sql" : "pglite", options, log);
    const uploads = manifest.members.filter((m) => m.name.startsWith("uploads/"));
    log(
      `uploads: ${await restoreUploads(config, staging, uploads)} of ${uploads.length} written back (the others were in the dump already)`,
    );
    if (names.has(VAULT_KEY_MEMBER) && !options.withVaultKey)
      log("the snapshot holds a vault key; not restored (pass --with-vault-key to restore it)");
    if (options.withVaultKey) await restoreVaultKey(config, join(staging, VAULT_KEY_MEMBER), log);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Writes back the snapshot's uploads whose row is missing or holds other bytes; answers how many. */
async function restoreUploads(config: Config, staging: string, members: SnapshotMember[]): Promise<number> {
  if (members.length === 0) return 0;
  const database = await openDatabase(config);
  let written = 0;
  try {
    for (const m of members) {
      const [, kind, name] = m.name.split("/");
      const bytes = await readFile(join(staging, m.name));
      const result: unknown = await database.db.execute(
        sql`insert into uploads (kind, name, content_type, size, sha256, bytes)
            values (${kind}, ${name}, ${m.content_type ?? "application/octet-stream"}, ${m.size}, ${m.sha256}, ${bytes})
            on conflict (kind, name) do update set content_type = excluded.content_type, size = excluded.size, sha256 = excluded.sha256, bytes = excluded.bytes, updated_at = now()
            where uploads.sha256 is distinct from excluded.sha256
            returning id`,
      );
      written += (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])).length;
    }
  } finally {
    await database.provider.close();
  }
  return written;
}

/** DATA_DIR/vault.key from the snapshot (0600); a different existing key is kept beside it. */
async function restoreVaultKey(config: Config, file: string, log: (line: string) => void): Promise<void> {
  const target = vaultKeyPath(resolve(config.DATA_DIR));
  const key = await readFile(file);
  if (existsSync(target)) {
    if ((await readFile(target)).equals(key)) {
      log("vault key: DATA_DIR/vault.key already holds the snapshot's key");
      return;
    }
    const aside = `${target}.before-restore-${Date.now()}`;
    await rename(target, aside);
    log(`vault key: the previous DATA_DIR/vault.key was moved to ${aside}`);
  }
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, key, { mode: 0o600, flag: "wx" });
  log(
    `vault key restored to ${target}${config.SVC_VAULT_KEY ? " (SVC_VAULT_KEY is set and takes precedence: set it to this key, or unset it)" : ""}`,
  );
}

async function restorePglite(config: Config, path: string, options: RestoreOptions): Promise<void> {
  const dataDir = resolve(config.DATA_DIR);
  // No --force here: a live embedded server would keep writing its own files over the restored ones.
  let unlock: () => void;
  try {
    unlock = lockDataDir(dataDir);
  } catch (e) {
    throw new RestoreRefused(`${(e as Error).message}: stop the server first (--force does not apply to the embedded database).`);
  }
  try {
    const staging = join(dataDir, `.restore-${Date.now()}`);
    await rm(staging, { recursive: true, force: true });
    const blob = new Blob([await readFile(path)]);
    const loaded = await PGlite.create({ fs: new PrivateNodeFS(staging), loadDataDir: blob, extensions: { pg_trgm } });
    await loaded.close();
    const aside = join(dataDir, `.before-restore-${Date.now()}`);
    await mkdir(aside, { recursive: true });
    for (const entry of await readdir(staging)) {
      if (existsSync(join(dataDir, entry))) await rename(join(dataDir, entry), join(aside, entry));
      await rename(join(staging, entry), join(dataDir, entry));
    }
    await rm(staging, { recursive: true, force: true });
    options.log?.(`PGlite files replaced; the previous ones are in ${aside}`);
  } finally {
    unlock();
  }
}

/** A plain SQL archive's method: the COPY fallback names itself on its first line. */
async function sqlArchiveMethod(path: string): Promise<"copy" | "pg_dump"> {
  const file = createReadStream(path, { end: 4095 });
  try {
    for await (const chunk of file.pipe(createGunzip({ finishFlush: constants.Z_SYNC_FLUSH })))
      return (chunk as Buffer).toString("utf8").split("\n", 1)[0]!.includes("method copy") ? "copy" : "pg_dump";
    return "pg_dump";
  } finally {
    file.destroy();
  }
}

/** Records every verified archive of the backup directory that the restored database does not list. */
async function rerecord(config: Config, backupDir: string, log: (line: string) => void): Promise<number> {
  const names = existsSync(backupDir) ? (await readdir(backupDir)).filter((n) => ARCHIVE_NAME.test(n)) : [];
  const database = await openDatabase(config);
  let added = 0;
  try {
    for (const name of names) {
      const file = join(backupDir, name);
      let checked: Awaited<ReturnType<typeof verifyArchive>>;
      try {
        checked = await verifyArchive(file);
      } catch (e) {
        log(`not recorded: ${(e as Error).message}`);
        continue;
      }
      const method =
        checked.kind === "sql"
          ? await sqlArchiveMethod(file)
          : checked.kind === "snapshot"
            ? ((await readSnapshotManifest(file))?.method ?? "pg_dump")
            : "pglite";
      const created = new Date((await stat(file)).mtimeMs);
      const result: unknown = await database.db.execute(
        sql`insert into db_backups (kind, filename, size_bytes, sha256, method, verified_at, manifest, trigger, created_at)
            values (${archiveKind(name)}, ${name}, ${checked.size}, ${checked.sha256}, ${method}, now(), ${JSON.stringify({ method, sha256: checked.sha256, rerecorded_by_restore: true })}::jsonb, 'manual', ${created.toISOString()}::timestamptz)
            on conflict (filename) do nothing returning id`,
      );
      const rows = Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []);
      added += rows.length;
    }
  } finally {
    await database.provider.close();
  }
  return added;
}

export async function restore(config: Config, options: RestoreOptions): Promise<{ sha256: string; rerecorded: number }> {
  const log = options.log ?? (() => {});
  const path = resolve(options.archive);
  const checked = await verifyArchive(path);
  log(`verified ${basename(path)}: ${checked.size} bytes, sha256 ${checked.sha256}`);
  if (checked.kind === "snapshot") await restoreSnapshot(config, path, options, log);
  else if (options.withVaultKey) throw new RestoreRefused("--with-vault-key applies to snapshots (cb-snapshot-*.tar.gz) only.");
  else await restoreDump(config, path, checked.kind, options, log);
  const backupDir = config.BACKUP_DIR ?? join(config.DATA_DIR, "backups");
  const rerecorded = await rerecord(config, existsSync(backupDir) ? backupDir : dirname(path), log);
  log(`re-recorded ${rerecorded} archive(s) of ${backupDir} in db_backups`);
  return { sha256: checked.sha256, rerecorded };
}
