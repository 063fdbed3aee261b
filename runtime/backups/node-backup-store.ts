// Deps.backups on Node: pg_dump (plain SQL through gzip, streamed) when the database is PostgreSQL and
// a pg_dump at least as new as the server is on PATH, else the COPY fallback (copy-dump.ts, method copy); PGlite's own dumpDataDir (a gzip tarball of the
// embedded data directory) on the embedded default. Every archive is written to <name>.partial,
// hashed while streaming, fsynced, renamed into place, then read back and its SHA-256 compared.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";
import type postgres from "postgres";
import { copyDumpPreflight, copyDumpStream } from "./copy-dump.ts";
import { hashing } from "./hashing.ts";
import { s3Operations } from "./s3.ts";
import type { Resolve } from "../../net/outbound-http.ts";
import { type MemberSource, packSnapshot, SNAPSHOT_FORMAT, spool, uploadMemberName, VAULT_KEY_MEMBER } from "./snapshot.ts";
import { decodeVaultKey } from "../../shared/vault/key-config.ts";
import { keyIdOf } from "../../shared/vault/vault.ts";
import { ARCHIVE_NAME, type BackupMethod, type BackupStore, type WrittenArchive } from "../../shared/verbs/backups/store.ts";

export interface NodeBackupOptions {
  dir: string;
  /** PostgreSQL: the connection URL pg_dump uses and a client to ask the server's version. */
  postgres?: { url: string; sql: postgres.Sql };
  pglite?: PGlite;
  /** The vault key's text (base64) for a snapshot that bundles it: SVC_VAULT_KEY or DATA_DIR/vault.key. */
  vaultKey?: () => Promise<string | null>;
  /** The pg_dump binary (PATH lookup by default); missing or older than the server: the COPY fallback. */
  pgDump?: string;
  /** Replaces the system resolver for S3 connections (tests: a name resolving to a refused address). */
  resolve?: Resolve;
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(path), hash);
  return hash.digest("hex");
}

async function pgDumpMajor(bin: string): Promise<number | null> {
  return new Promise((done) => {
    const child = spawn(bin, ["--version"], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", () => done(null));
    child.on("close", () => {
      const m = /\s(\d+)(?:\.\d+)?/.exec(out);
      done(m ? Number(m[1]) : null);
    });
  });
}

/** `plain` through gzip level 6 (as the pg_dump path); an error of either side fails the stream. */
function gzipped(plain: Readable): Readable {
  const gzip = createGzip({ level: 6 });
  pipeline(plain, gzip).catch(() => {});
  return gzip;
}

export function nodeBackupStore(options: NodeBackupOptions): BackupStore {
  const dir = resolve(options.dir);
  const pgDump = options.pgDump ?? "pg_dump";

  /**
   * Streams `source` into <filename>.partial (hashing it), fsyncs, renames, reads back, compares. Mode
   * 0600 like the vault key, whatever the umask: an archive holds every row, a snapshot maybe the key.
   */
  async function writeArchive(
    filename: string,
    method: BackupMethod,
    source: () => Readable,
    manifest: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<WrittenArchive> {
    await mkdir(dir, { recursive: true });
    const final = join(dir, filename);
    const partial = `${final}.partial`;
    const hash = createHash("sha256");
    const counter = { bytes: 0 };
    try {
      await pipeline(
        source(),
        hashing(hash, counter),
        createWriteStream(partial, { flags: "wx", mode: 0o600 }),
        ...(signal ? [{ signal }] : []),
      );
      const fh = await open(partial, "r+");
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(partial, final);
    } catch (e) {
      await rm(partial, { force: true });
      throw e;
    }
    const sha256 = hash.digest("hex");
    const readBack = await sha256File(final);
    if (readBack !== sha256) {
      await rm(final, { force: true });
      throw new Error(`The archive ${filename} read back with a different SHA-256 (${readBack}, written ${sha256}); it was removed.`);
    }
    // The checksum beside the archive (sha256sum format): what `npm run restore` checks offline.
    await writeFile(`${final}.sha256`, `${sha256}  ${filename}\n`, { mode: 0o600 });
    return {
      filename,
      size_bytes: counter.bytes,
      sha256,
      method,
      verified_at: new Date(),
      manifest: { ...manifest, method, size_bytes: counter.bytes, sha256 },
    };
  }

  /** pg_dump when a suitable one is on PATH, else the COPY fallback (copy-dump.ts), with the reason. */
  async function postgresSource(
    url: string,
    sql: postgres.Sql,
  ): Promise<{ method: BackupMethod; source: () => Readable; manifest: Record<string, unknown> }> {
    const [row] = await sql<{ v: string }[]>`select current_setting('server_version_num') as v`;
    const serverMajor = Math.floor(Number(row!.v) / 10000);
    const dumpMajor = await pgDumpMajor(pgDump);
    if (dumpMajor === null || dumpMajor < serverMajor) {
      const fallback_reason =
        dumpMajor === null ? `no pg_dump on PATH (${pgDump})` : `pg_dump ${dumpMajor} is older than the server (PostgreSQL ${serverMajor})`;
      const { migration_level } = await copyDumpPreflight(sql);
      return {
        method: "copy",
        manifest: {
          server_major: serverMajor,
          pg_dump_major: dumpMajor,
          fallback_reason,
          migration_level,
          format: "plain SQL (our migrations, then COPY blocks), gzip",
        },
        source: () => gzipped(copyDumpStream(sql)),
      };
    }
    return {
      method: "pg_dump",
      manifest: { server_major: serverMajor, pg_dump_major: dumpMajor, format: "plain SQL, gzip" },
      source: () => {
        const child = spawn(pgDump, ["--no-owner", "--no-privileges", "--clean", "--if-exists", "--dbname", url], {
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
        const gzip = createGzip({ level: 6 });
        // The gzip stream ends only once pg_dump has exited 0: a pg_dump failing mid-way (its stdout
        // ends cleanly, truncated) must fail the archive, not complete it. 'close' comes after stdout's data.
        child.stdout.pipe(gzip, { end: false });
        child.on("close", (code, signal) => {
          if (code === 0) gzip.end();
          else gzip.destroy(new Error(`pg_dump exited with ${code ?? signal}: ${stderr.trim()}`));
        });
        child.on("error", (e) => gzip.destroy(e));
        gzip.on("close", () => child.kill());
        return gzip;
      },
    };
  }

  /** The database's dump: its method, its member name in a snapshot (db.<ext>) and its stream. */
  async function dumpSource(): Promise<{
    method: BackupMethod;
    member: string;
    source: () => Readable;
    manifest: Record<string, unknown>;
  }> {
    if (options.postgres) return { member: "db.sql.gz", ...(await postgresSource(options.postgres.url, options.postgres.sql)) };
    if (options.pglite) {
      const dump = await options.pglite.dumpDataDir("gzip");
      return {
        method: "pglite",
        member: "db.tar.gz",
        source: () => Readable.fromWeb(dump.stream() as never),
        manifest: { format: "PGlite data directory, tar.gz" },
      };
    }
    throw new Error("No database to back up.");
  }

  /** Every upload as a snapshot member, read one row at a time (uploads are rows of `uploads`). */
  async function* uploads(): AsyncGenerator<MemberSource> {
    type Upload = { id: number; kind: string; name: string; content_type: string };
    const pg = options.postgres?.sql;
    const list: Upload[] = pg
      ? await pg<Upload[]>`select id, kind, name, content_type from uploads order by id`
      : ((await options.pglite?.query<Upload>("select id, kind, name, content_type from uploads order by id"))?.rows ?? []);
    for (const u of list) {
      const name = uploadMemberName(u.kind, u.name);
      if (!name) throw new Error(`The upload ${u.id} has a name that is not a safe archive path (${u.kind}/${u.name}).`);
      const rows: { bytes: Uint8Array }[] = pg
        ? await pg<{ bytes: Uint8Array }[]>`select bytes from uploads where id = ${u.id}`
        : (await options.pglite!.query<{ bytes: Uint8Array }>("select bytes from uploads where id = $1", [u.id])).rows;
      // Deleted since the listing: it is not in the snapshot's uploads (nor, then, in a later dump).
      if (rows[0]) yield { name, bytes: rows[0].bytes, content_type: u.content_type };
    }
  }

  return {
    dir,
    ...s3Operations(dir, options.resolve),
    async removeArchive(filename) {
      if (!ARCHIVE_NAME.test(filename)) return;
      await rm(join(dir, filename), { force: true });
      await rm(join(dir, `${filename}.sha256`), { force: true });
    },
    async writeBackup(stem, signal) {
      await this.removeStale();
      const { method, member, source, manifest } = await dumpSource();
      return writeArchive(`${stem}.${member.slice(3)}`, method, source, manifest, signal);
    },
    async writeSnapshot(stem, request, signal) {
      await this.removeStale();
      let key: Uint8Array | null = null;
      if (request.includeVaultKey) {
        const text = (await options.vaultKey?.()) ?? null;
        if (!text) throw new Error("This process has no vault key to bundle (neither SVC_VAULT_KEY nor DATA_DIR/vault.key).");
        key = Buffer.from(`${text.trim()}\n`);
        if ((await keyIdOf(decodeVaultKey(text, "the vault key"))) !== request.vaultKeyId)
          throw new Error("The vault key found is not the vault's current key; the snapshot was not taken.");
      }
      const dump = await dumpSource();
      await mkdir(dir, { recursive: true });
      // Spooled (a tar header needs the size); a .partial name, so an interrupted snapshot's is swept.
      const spooled = join(dir, `${stem}.${dump.member}.partial`);
      await spool(dump.source(), spooled, signal);
      try {
        async function* members(): AsyncGenerator<MemberSource> {
          yield { name: dump.member, file: spooled };
          yield* uploads();
          if (key) yield { name: VAULT_KEY_MEMBER, bytes: key };
        }
        const created_at = new Date().toISOString();
        const head = {
          format: SNAPSHOT_FORMAT,
          version: request.version,
          created_at,
          vault_key_id: request.vaultKeyId,
          vault_key_included: key !== null,
          method: dump.method,
        };
        const archive = await writeArchive(
          `${stem}.tar.gz`,
          dump.method,
          () => packSnapshot(members(), head),
          { ...dump.manifest, snapshot: head },
          signal,
        );
        return archive;
      } finally {
        await rm(spooled, { force: true });
      }
    },
    async openArchive(filename) {
      if (!ARCHIVE_NAME.test(filename)) return null;
      const path = join(dir, filename);
      try {
        const { size } = await stat(path);
        return { size, body: Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array> };
      } catch {
        return null;
      }
    },
    async removeStale() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return 0;
      }
      const stale = names.filter((n) => n.endsWith(".partial"));
      await Promise.all(stale.map((n) => rm(join(dir, n), { force: true })));
      return stale.length;
    },
  };
}
