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
 * The migrated template (a gzipped tarball, PGlite's dumpDataDir format) for these extensions: read from
 * the cache, or made in memory and cached. A cache that cannot be written (a read-only install) only
 * costs the next fresh start the same work again.
 */
export async function migratedTemplate(
  extensions: Extensions,
  warn: (message: string, fields: Record<string, unknown>) => void,
): Promise<Blob> {
  const file = join(CACHE_DIR, `${templateKey(extensions)}.tar.gz`);
  if (existsSync(file)) return gzipped(readFileSync(file));
  const pg = await PGlite.create({ extensions });
  let tarball: Blob;
  try {
    await migrate(drizzle(pg), { migrationsFolder: MIGRATIONS_FOLDER });
    tarball = await pg.dumpDataDir("gzip");
  } finally {
    await pg.close();
  }
  const bytes = new Uint8Array(await tarball.arrayBuffer());
  // Written aside and renamed, so a process starting beside this one never reads half a template.
  const partial = `${file}.${process.pid}.partial`;
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(partial, bytes);
    renameSync(partial, file);
    // The templates of earlier migration sets are of no further use.
    for (const old of readdirSync(CACHE_DIR))
      if (old.endsWith(".tar.gz") && join(CACHE_DIR, old) !== file) rmSync(join(CACHE_DIR, old), { force: true });
  } catch (e) {
    rmSync(partial, { force: true });
    warn("the migrated database template could not be cached; the next fresh DATA_DIR will build it again", {
      file,
      error: (e as Error).message,
    });
  }
  return gzipped(bytes);
}

// The type tells PGlite's loader to gunzip it (it would otherwise try the bytes as a plain tar first).
const gzipped = (bytes: Uint8Array<ArrayBuffer>) => new Blob([bytes], { type: "application/gzip" });
