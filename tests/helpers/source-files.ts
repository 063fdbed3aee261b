// The repository's own source files, read by the tests that check rules of the code itself
// (tests/unit/runtime-neutral.test.ts, tests/unit/import-rules.test.ts).
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** The .ts and .tsx files under `dir`, as repository paths with forward slashes (no node_modules or dist). */
export function tsFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/[\\/](node_modules|dist)([\\/]|$)/.test(e.parentPath))
    .map((e) => relative(repoRoot, join(e.parentPath, e.name)).split("\\").join("/"));
}

/** Comments may mention the rules ("no process.env here", "db.transaction( per batch"); only code counts. */
export function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}
