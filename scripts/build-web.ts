// `npm run build:web` (and, with --if-stale, before `npm start` and `npm test`): regenerates the web
// client's API types from the routes, type-checks the web app against them, and builds it into web/dist,
// which the server serves at / (docs/web-ui.md). A stamp of the inputs' hash skips an up-to-date build,
// and a lock file makes concurrent starts (parallel end-to-end tests) build once and wait for it.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { rename } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const web = join(root, "web");
const dist = join(web, "dist");
const STAMP = ".build-stamp";
const LOCK = join(web, ".build.lock");
const LOCK_WAIT_MS = 300_000;

/** Every input of the build: the web app, the routes and schemas its types come from, the lock file. */
function inputsHash(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name === "dist" || e.name === "node_modules" || e.name.startsWith(".")) continue;
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.isFile()) hash.update(path.slice(root.length)).update(readFileSync(path));
    }
  };
  for (const dir of ["web", "functions", "shared"]) walk(join(root, dir));
  hash.update(readFileSync(join(root, "package-lock.json")));
  return hash.digest("hex");
}

const builtHash = () => {
  try {
    return readFileSync(join(dist, STAMP), "utf8").trim();
  } catch {
    return undefined;
  }
};

async function takeLock(): Promise<() => void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(LOCK, "wx"));
      return () => rmSync(LOCK, { force: true });
    } catch {
      // A lock left by a build that died long ago is taken over.
      const age = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_WAIT_MS) rmSync(LOCK, { force: true });
      if (Date.now() > deadline) throw new Error(`another web build holds ${LOCK} for over ${LOCK_WAIT_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

function viteInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve("vite");
    return true;
  } catch {
    return false;
  }
}

export async function buildWeb({ ifStale = false } = {}): Promise<"built" | "up to date" | "skipped"> {
  if (ifStale && builtHash() === inputsHash()) return "up to date";
  if (!viteInstalled()) {
    // A production install (npm ci --omit=dev) runs what was built; without a build the API runs alone.
    process.stderr.write("web UI not built: vite is not installed (npm ci installs it); the API runs without the UI\n");
    return "skipped";
  }
  const release = await takeLock();
  try {
    if (ifStale && builtHash() === inputsHash()) return "up to date";
    const { writeWebApiTypes } = await import("./web-api-types.ts");
    await writeWebApiTypes();
    const tsc = spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", web], { stdio: "inherit" });
    if (tsc.status !== 0) throw new Error("the web app does not type-check against the API (see above)");
    const hash = inputsHash();
    const { build } = await import("vite");
    // Built beside dist and swapped in, so a running server never reads a half-written directory.
    const next = join(web, `.dist-${process.pid}`);
    await build({ configFile: join(web, "vite.config.ts"), logLevel: "warn", build: { outDir: next, emptyOutDir: true } });
    writeFileSync(join(next, STAMP), hash);
    const old = join(web, `.dist-old-${process.pid}`);
    await rename(dist, old).catch(() => undefined);
    await rename(next, dist);
    rmSync(old, { recursive: true, force: true });
    return "built";
  } finally {
    release();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const result = await buildWeb({ ifStale: process.argv.includes("--if-stale") });
    process.stdout.write(`web UI: ${result}\n`);
  } catch (e) {
    process.stderr.write(`web UI build failed: ${(e as Error).message}\n`);
    process.exit(1);
  }
}
