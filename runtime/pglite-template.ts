// A fresh embedded database starts from a template instead of initdb + every migration (docs/adr/0508):
// a dump of a data directory initdb'd and migrated once, kept in node_modules/.cache under a key of the
// PGlite version, its extensions and the migrations' text. Unpacking it costs a fraction of initdb and
// the migrations, which were most of the all-in-one's start on an empty DATA_DIR. The migrator still
// runs after it (a template can only lack migrations, never hold one the folder does not), and a data
// directory that already holds a database is never touched.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Extensions, PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { extract } from "tar";
import { PRIVATE_UMASK } from "./data-dir.ts";
import { MIGRATIONS_FOLDER } from "./migrations-folder.ts";

const CACHE_DIR = fileURLToPath(new URL("../node_modules/.cache/svc-pglite-template", import.meta.url));

/** Whether `dataDir` holds no database yet (PGlite's own test: PG_VERSION at its root). */
export function isFreshDataDir(dataDir: string): boolean {
  return !existsSync(join(dataDir, "PG_VERSION"));
}

/** What a template depends on: the PGlite build, the extensions loaded, and what the migrator applies. */
export function templateKey(extensions: Extensions): string {
  const hash = createHash("sha256");
  const pglite = JSON.parse(readFileSync(new URL("../package.json", import.meta.resolve("@electric-sql/pglite")), "utf8")) as {
    version: string;
  };
  hash.update(`pglite ${pglite.version}\nextensions ${Object.keys(extensions).sort().join(",")}\n`);
  const files = [
    "meta/_journal.json",
    ...readdirSync(MIGRATIONS_FOLDER)
      .filter((f) => f.endsWith(".sql"))
      .sort(),
  ];
  for (const file of files) hash.update(`${file}\n`).update(readFileSync(join(MIGRATIONS_FOLDER, file)));
  return hash.digest("hex").slice(0, 16);
}

/**
 * Fills an empty `dataDir` from the migrated template for these extensions, made in memory and cached
 * first when there is none. Answers a tarball for PGlite's `loadDataDir` only when the template could
 * not be cached (a read-only install), which then costs every fresh start the same work again.
 */
export async function fillFromTemplate(
  dataDir: string,
  extensions: Extensions,
  warn: (message: string, fields: Record<string, unknown>) => void,
): Promise<Blob | undefined> {
  const file = join(CACHE_DIR, `${templateKey(extensions)}.tar.gz`);
  if (!existsSync(file)) {
    const bytes = await buildTemplate(extensions);
    if (!cache(file, bytes, warn)) return new Blob([bytes], { type: "application/gzip" });
  }
  // Unpacked here rather than through loadDataDir, which writes each of the ~1,800 files through
  // PGlite's emscripten file system (about 1 s of CPU against 0.1 s). PG_VERSION comes last: an unpack
  // cut short leaves a directory that is still fresh, and the next start unpacks it again. The umask
  // keeps every file the owner's only, as PrivateNodeFS does for PGlite's own writes.
  const isVersion = (path: string) => path.replace(/^\/+/, "") === "PG_VERSION";
  extract({ file, cwd: dataDir, sync: true, umask: PRIVATE_UMASK, filter: (path) => !isVersion(path) });
  extract({ file, cwd: dataDir, sync: true, umask: PRIVATE_UMASK, filter: isVersion });
  return undefined;
}

/** A database initdb'd and migrated in memory, dumped as a gzipped tarball (PGlite's dumpDataDir). */
async function buildTemplate(extensions: Extensions): Promise<Uint8Array<ArrayBuffer>> {
  const pg = await PGlite.create({ extensions });
  try {
    await migrate(drizzle(pg), { migrationsFolder: MIGRATIONS_FOLDER });
    return new Uint8Array(await (await pg.dumpDataDir("gzip")).arrayBuffer());
  } finally {
    await pg.close();
  }
}

/** Writes the template to the cache; false (with a warning) where it cannot. */
function cache(file: string, bytes: Uint8Array, warn: (message: string, fields: Record<string, unknown>) => void): boolean {
  // Written aside and renamed, so a process starting beside this one never reads half a template.
  const partial = `${file}.${process.pid}.partial`;
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(partial, bytes);
    renameSync(partial, file);
  } catch (e) {
    rmSync(partial, { force: true });
    warn("the migrated database template could not be cached; every fresh DATA_DIR will build it again", {
      file,
      error: (e as Error).message,
    });
    return false;
  }
  // The templates of earlier migration sets are of no further use.
  for (const old of readdirSync(CACHE_DIR))
    if (old.endsWith(".tar.gz") && join(CACHE_DIR, old) !== file) rmSync(join(CACHE_DIR, old), { force: true });
  return true;
}
