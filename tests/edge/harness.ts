// Runs the bundled Workers entry in miniflare (workerd) with the compatibility settings of wrangler.toml,
// so the suite exercises what a deployment would run.
import postgres from "postgres";
import { PG_ADMIN_URL, TEST_VAULT_KEY } from "../helpers/env.ts";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Miniflare, type MiniflareOptions } from "miniflare";
import { buildEdge, type EdgeBuild } from "../../scripts/build-edge.ts";

export interface WranglerSettings {
  compatibilityDate: string;
  compatibilityFlags: string[];
}

/** The two settings workerd needs, read from wrangler.toml so tests and deployment stay in step. */
export function wranglerSettings(): WranglerSettings {
  const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  if (!date) throw new Error("wrangler.toml has no compatibility_date");
  return { compatibilityDate: date, compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1]!) };
}

/** wrangler.toml's [assets] section as miniflare takes it (wrangler turns run_worker_first into the same rules). */
export function wranglerAssets(directory: string): NonNullable<MiniflareOptions["assets"]> {
  const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
  const section = /^\[assets\]\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1];
  if (section === undefined) throw new Error("wrangler.toml has no [assets] section");
  const lines = section
    .split("\n")
    .filter((l) => !l.trimStart().startsWith("#"))
    .join("\n");
  const notFound = /^not_found_handling\s*=\s*"([^"]+)"/m.exec(lines)?.[1];
  const runWorkerFirst = [...(/^run_worker_first\s*=\s*\[([^\]]*)\]/m.exec(lines)?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  if (notFound !== "single-page-application" && notFound !== "404-page" && notFound !== "none" && notFound !== undefined) {
    throw new Error(`wrangler.toml: unknown not_found_handling "${notFound}"`);
  }
  return {
    directory,
    routerConfig: {
      has_user_worker: true,
      // A "!" pattern is served from the assets even though a wider pattern runs the worker first.
      ...(runWorkerFirst.length > 0
        ? {
            static_routing: {
              user_worker: runWorkerFirst.filter((p) => !p.startsWith("!")),
              asset_worker: runWorkerFirst.filter((p) => p.startsWith("!")).map((p) => p.slice(1)),
            },
          }
        : {}),
    },
    assetConfig: notFound ? { not_found_handling: notFound } : {},
  };
}

export interface EdgeBundle extends EdgeBuild {
  remove(): Promise<void>;
}

/** Builds dist/worker.js and the assets into a fresh temporary directory. */
export async function buildBundle(): Promise<EdgeBundle> {
  const dir = await mkdtemp(join(tmpdir(), "cp-edge-"));
  const build = await buildEdge(dir);
  return { ...build, remove: () => rm(dir, { recursive: true, force: true }) };
}

export type WorkerOptions = Omit<MiniflareOptions, "modules" | "scriptPath" | "modulesRoot" | "compatibilityDate" | "compatibilityFlags">;

export function startWorker(bundle: EdgeBuild, options: WorkerOptions = {}): Miniflare {
  return new Miniflare({
    ...wranglerSettings(),
    modules: true,
    scriptPath: bundle.script,
    // Module names are relative to this root; workerd refuses names that climb out of it with "..".
    modulesRoot: dirname(bundle.script),
    ...options,
    // Every functions instance holds the installation's vault key (a test may leave it out on purpose).
    bindings: { SVC_VAULT_KEY: TEST_VAULT_KEY, ...(options.bindings as Record<string, unknown> | undefined) },
  } as MiniflareOptions);
}

/** How many connections `database` still has once they had up to 5 s to close (0 when all did). */
export async function openConnectionsAfterWait(database: string): Promise<number> {
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    const open = async () => Number((await admin`select count(*)::int as n from pg_stat_activity where datname = ${database}`)[0]!.n);
    let n = await open();
    for (let i = 0; i < 50 && n > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      n = await open();
    }
    return n;
  } finally {
    await admin.end();
  }
}
