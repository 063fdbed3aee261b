// The web UI in the edge's static assets (wrangler.toml [assets]): the files of a `npm run build:web`
// output, and a `_headers` file giving them the headers the Node server sends (functions/routes/web-app.ts):
// hashed assets cached for a year, the page (index.html, answered for every screen's path by the SPA
// fallback) revalidated on each load and under the page's CSP.
import { copyFile, mkdir, readdir } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { ASSET_CACHE, ASSET_MOUNTS, PAGE_CACHE, PAGE_HEADERS } from "../functions/routes/web-app.ts";
import { hstsFor } from "../functions/security-headers.ts";

/** The documentation pages' scripts' cache on Node (functions/openapi/document.ts). */
const DOCS_SCRIPTS = { path: "/api/docs/assets/*", cache: "public, max-age=86400" };

/** Copies the build's files into `to`, leaving out what the Node server does not serve either (source maps, dotfiles). */
export async function copyWebApp(from: string, to: string): Promise<number> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  let copied = 0;
  for (const e of entries) {
    if (!e.isFile() || e.name.endsWith(".map") || e.name.startsWith(".")) continue;
    const source = join(e.parentPath, e.name);
    const target = join(to, relative(from, source));
    await mkdir(dirname(target), { recursive: true });
    await copyFile(source, target);
    copied++;
  }
  return copied;
}

/**
 * The `_headers` file (Workers static assets' format). Every rule whose path matches applies, in order,
 * and a second value for one header is appended, so the narrower rules first drop ("! name") the page's
 * Cache-Control that `/*` set. Responses from the worker itself never get these (the app sets its own).
 * `publicUrl` (PUBLIC_URL at build time): https adds Strict-Transport-Security, as the app does.
 */
export function edgeHeadersFile(publicUrl?: string): string {
  const hsts = hstsFor(publicUrl);
  const rule = (path: string, headers: Record<string, string>, unset: string[] = []) =>
    [path, ...unset.map((h) => `  ! ${h}`), ...Object.entries(headers).map(([k, v]) => `  ${k}: ${v}`)].join("\n");
  return [
    "# Written by scripts/build-edge.ts from functions/routes/web-app.ts: the Node server's headers for the web UI.",
    rule("/*", {
      "Cache-Control": PAGE_CACHE,
      ...PAGE_HEADERS,
      "X-Content-Type-Options": "nosniff",
      ...(hsts ? { "Strict-Transport-Security": hsts } : {}),
    }),
    ...ASSET_MOUNTS.map((mount) => rule(`/${mount}/*`, { "Cache-Control": ASSET_CACHE }, ["Cache-Control"])),
    rule(DOCS_SCRIPTS.path, { "Cache-Control": DOCS_SCRIPTS.cache }, ["Cache-Control"]),
    "",
  ].join("\n");
}
