// The built web UI (web/dist, or WEB_DIR), read into memory once at start: a few hundred kilobytes of
// hashed assets and one index.html. Absent directory: no UI, the API runs alone (spec 4.6).
import { readdir, readFile } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { WebAppFiles, WebFile } from "../shared/deps.ts";

export const DEFAULT_WEB_DIR = fileURLToPath(new URL("../web/dist", import.meta.url));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

export async function loadWebApp(dir: string = DEFAULT_WEB_DIR): Promise<WebAppFiles | undefined> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => undefined);
  if (!entries) return undefined;
  const files = new Map<string, WebFile>();
  for (const e of entries) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    // Source maps and build stamps stay on disk.
    if (e.name.endsWith(".map") || e.name.startsWith(".")) continue;
    files.set(relative(dir, path).split(sep).join("/"), {
      bytes: new Uint8Array(await readFile(path)),
      contentType: TYPES[extname(e.name)] ?? "application/octet-stream",
    });
  }
  if (!files.has("index.html")) return undefined;
  return (name) => files.get(name);
}
