// Snapshot archives (cb-snapshot-<ts>.tar.gz): a gzip tarball, written with tar-stream, of
//   db.sql.gz | db.tar.gz   the database dump (pg_dump, the COPY fallback, or PGlite's data directory)
//   uploads/<kind>/<name>   every uploaded file (this product keeps uploads as rows of `uploads`, so the
//                           dump already holds them; the files are here so the archive carries them
//                           readably, as the reference's snapshot does, and the restore checks them)
//   vault.key               only when the operator asked for it
//   manifest.json           last: version, created_at, vault key id, and the size and SHA-256 of every
//                           other member, so the restore verifies each member before using it.
// Members are streamed one after another (the dump is spooled to a temporary file first: a tar header
// needs the size up front). unpackSnapshot is the restore's half: it extracts into a directory,
// hashing as it goes, and refuses an archive whose members do not match the manifest.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readFile, rm, stat } from "node:fs/promises";
import { dirname, join, normalize, sep } from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { extract, pack } from "tar-stream";
import { hashing } from "./hashing.ts";

export const SNAPSHOT_FORMAT = 1;
export const MANIFEST = "manifest.json";
export const VAULT_KEY_MEMBER = "vault.key";

export interface SnapshotMember {
  name: string;
  size: number;
  sha256: string;
  /** Uploads: their media type, so the restore can write them back as rows. */
  content_type?: string;
}

export interface SnapshotManifest {
  format: number;
  version: string;
  created_at: string;
  /** The id of the vault key the database's secrets are sealed with (never the key itself). */
  vault_key_id: string | null;
  vault_key_included: boolean;
  method: string;
  members: SnapshotMember[];
}

/** One member to write: its bytes come from a file or a buffer. */
export type MemberSource = ({ name: string; file: string } | { name: string; bytes: Uint8Array }) & { content_type?: string };

/** A member name we write and accept: relative, no `..`, no absolute paths, no backslashes. */
export function safeMemberName(name: string): boolean {
  if (!name || name.startsWith("/") || name.includes("\\") || name.includes("\0")) return false;
  const n = normalize(name);
  return n === name && !n.split(sep).includes("..");
}

/** Upload names as archive paths: kind and name are our own (kind a word, name generated), but checked. */
export function uploadMemberName(kind: string, name: string): string | null {
  const member = `uploads/${kind}/${name}`;
  return /^[\w.-]+$/.test(kind) && /^[\w.-]+$/.test(name) && safeMemberName(member) ? member : null;
}

async function sha256Of(source: MemberSource): Promise<{ size: number; sha256: string }> {
  if ("bytes" in source) return { size: source.bytes.length, sha256: createHash("sha256").update(source.bytes).digest("hex") };
  const hash = createHash("sha256");
  await pipeline(createReadStream(source.file), hash);
  return { size: (await stat(source.file)).size, sha256: hash.digest("hex") };
}

/**
 * The gzip tarball of `members` then manifest.json, as a stream. `members` is consumed lazily (the
 * uploads are read one at a time); each member is hashed before it is packed.
 */
export function packSnapshot(members: AsyncIterable<MemberSource>, manifest: Omit<SnapshotManifest, "members">): Readable {
  const tar = pack();
  const out = new PassThrough();
  const listed: SnapshotMember[] = [];
  const addEntry = (name: string, size: number, body: Readable | Uint8Array) =>
    new Promise<void>((done, fail) => {
      const entry = tar.entry({ name, size, mode: name === VAULT_KEY_MEMBER ? 0o600 : 0o644, mtime: new Date(manifest.created_at) }, (e) =>
        e ? fail(e) : done(),
      );
      if (body instanceof Uint8Array) entry.end(body);
      else pipeline(body, entry).catch(fail);
    });
  (async () => {
    for await (const m of members) {
      if (!safeMemberName(m.name) || m.name === MANIFEST) throw new Error(`Refusing to pack a member named ${JSON.stringify(m.name)}.`);
      const { size, sha256 } = await sha256Of(m);
      await addEntry(m.name, size, "bytes" in m ? m.bytes : createReadStream(m.file));
      listed.push({ name: m.name, size, sha256, ...(m.content_type ? { content_type: m.content_type } : {}) });
    }
    const body = Buffer.from(`${JSON.stringify({ ...manifest, members: listed }, null, 2)}\n`);
    await addEntry(MANIFEST, body.length, body);
    tar.finalize();
  })().catch((e: unknown) => tar.destroy(e as Error));
  pipeline(tar, createGzip({ level: 6 }), out).catch((e: unknown) => out.destroy(e as Error));
  return out;
}

export class SnapshotRefused extends Error {
  override name = "SnapshotRefused";
}

/**
 * Extracts a snapshot into `into` (created, must be empty) and checks every member against the
 * manifest: same names, sizes and SHA-256, nothing missing, nothing extra. Throws SnapshotRefused.
 */
export async function unpackSnapshot(archive: string, into: string): Promise<SnapshotManifest> {
  await mkdir(into, { recursive: true, mode: 0o700 });
  const seen = new Map<string, SnapshotMember>();
  const ex = extract();
  ex.on("entry", (header, stream, next) => {
    const name = header.name;
    const fail = (why: string) => {
      stream.resume();
      ex.destroy(new SnapshotRefused(why));
    };
    if (header.type !== "file") return fail(`the member ${JSON.stringify(name)} is not a regular file`);
    if (!safeMemberName(name)) return fail(`the member name ${JSON.stringify(name)} is not a safe relative path`);
    if (seen.has(name)) return fail(`the member ${name} appears twice`);
    const target = join(into, name);
    const hash = createHash("sha256");
    const counter = { bytes: 0 };
    mkdir(dirname(target), { recursive: true })
      .then(() =>
        pipeline(
          stream,
          hashing(hash, counter),
          createWriteStream(target, { flags: "wx", mode: name === VAULT_KEY_MEMBER ? 0o600 : 0o644 }),
        ),
      )
      .then(() => {
        seen.set(name, { name, size: counter.bytes, sha256: hash.digest("hex") });
        next();
      })
      .catch((e: unknown) => ex.destroy(e as Error));
  });
  try {
    await pipeline(createReadStream(archive), createGunzip(), ex);
  } catch (e) {
    if (e instanceof SnapshotRefused) throw e;
    throw new SnapshotRefused(`the snapshot could not be unpacked (${(e as Error).message})`);
  }
  if (!seen.has(MANIFEST)) throw new SnapshotRefused("the snapshot has no manifest.json");
  let manifest: SnapshotManifest;
  try {
    manifest = JSON.parse(await readFile(join(into, MANIFEST), "utf8")) as SnapshotManifest;
  } catch (e) {
    throw new SnapshotRefused(`manifest.json is not JSON (${(e as Error).message})`);
  }
  if (manifest.format !== SNAPSHOT_FORMAT || !Array.isArray(manifest.members))
    throw new SnapshotRefused(`manifest.json is not a format ${SNAPSHOT_FORMAT} snapshot manifest`);
  const listed = new Set<string>();
  for (const m of manifest.members) {
    listed.add(m.name);
    const got = seen.get(m.name);
    if (!got) throw new SnapshotRefused(`the member ${m.name} listed in the manifest is missing`);
    if (got.size !== m.size || got.sha256 !== m.sha256)
      throw new SnapshotRefused(
        `the member ${m.name} is corrupt: SHA-256 ${got.sha256} (${got.size} bytes), the manifest says ${m.sha256} (${m.size} bytes)`,
      );
  }
  for (const name of seen.keys())
    if (name !== MANIFEST && !listed.has(name)) throw new SnapshotRefused(`the member ${name} is not in the manifest`);
  return manifest;
}

/** Spools a stream into a file (fsynced), for a member whose size must be known before it is packed. */
export async function spool(source: Readable, file: string, signal?: AbortSignal): Promise<void> {
  try {
    await pipeline(source, createWriteStream(file, { flags: "wx", mode: 0o600 }), ...(signal ? [{ signal }] : []));
    const fh = await open(file, "r+");
    await fh.sync().finally(() => fh.close());
  } catch (e) {
    await rm(file, { force: true });
    throw e;
  }
}

/** A snapshot's manifest.json, read by streaming through the archive (the restore's re-recording). */
export async function readSnapshotManifest(archive: string): Promise<SnapshotManifest | null> {
  let text: string | null = null;
  const ex = extract();
  ex.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: unknown) => {
      if (header.name === MANIFEST) chunks.push(c as Buffer);
    });
    stream.on("end", () => {
      if (header.name === MANIFEST) text = Buffer.concat(chunks).toString("utf8");
      next();
    });
  });
  try {
    await pipeline(createReadStream(archive), createGunzip(), ex);
    return text ? (JSON.parse(text) as SnapshotManifest) : null;
  } catch {
    return null;
  }
}
