// Bundles the Workers entry (bin/worker.ts) into dist/worker.js and fills dist/edge-assets (wrangler.toml
// [assets]) with the web UI (built first when stale, as `npm start` does) and the documentation pages'
// scripts, so / and /api/docs work offline on the edge too. `npm run build:edge`, or buildEdge(outDir)
// from the edge tests.
import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { buildWeb } from "./build-web.ts";
import { copyWebApp, edgeHeadersFile } from "./edge-web-assets.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const WEB_DIST = join(root, "web/dist");

// hono-openapi (through @standard-community/standard-json) imports the converters of every schema
// library it knows lazily; only valibot's is ever used here, the others are not installed.
export const OPTIONAL_IMPORTS = ["effect", "sury", "zod-to-json-schema", "zod-openapi", "zod/v4/core", "arktype", "@sinclair/typebox"];

// Bare node built-ins badge-maker's width tables require for file loaders it never calls (docs/adr/0455),
// and those postcss (sanitize-html's CSS parser, never called: no style attribute is allowed) requires for
// source maps; postcss's own `browser` field maps fs, path and url to nothing (docs/adr/0456).
export const NODE_STUBBED_IMPORTS = ["fs", "util", "path", "url"];
const NODE_STUB = join(root, "scripts/edge-node-fs-stub.js");

export interface EdgeBuild {
  /** The bundled worker module. */
  script: string;
  /** The static assets directory (wrangler.toml [assets] directory). */
  assets: string;
}

// Resolved the way runtime/assets.ts does at run time.
function docScripts(): Record<"scalar.js" | "redoc.js", string> {
  const require = createRequire(import.meta.url);
  return {
    "scalar.js": join(dirname(require.resolve("@scalar/api-reference")), "browser/standalone.js"),
    "redoc.js": join(dirname(require.resolve("redoc")), "redoc.standalone.js"),
  };
}

/** Any of OPTIONAL_IMPORTS resolves to an empty module instead of failing the build. */
const emptyOptionalImports: esbuild.Plugin = {
  name: "empty-optional-imports",
  setup(build) {
    const names = new Set(OPTIONAL_IMPORTS);
    build.onResolve({ filter: /^[@a-z]/ }, (args) => (names.has(args.path) ? { path: args.path, namespace: "empty-module" } : undefined));
    build.onLoad({ filter: /.*/, namespace: "empty-module" }, () => ({ contents: "export {};", loader: "js" }));
    build.onResolve({ filter: /^(fs|util|path|url)$/ }, (args) =>
      NODE_STUBBED_IMPORTS.includes(args.path) ? { path: NODE_STUB } : undefined,
    );
  },
};

export async function buildEdge(outDir: string = join(root, "dist")): Promise<EdgeBuild> {
  const script = join(outDir, "worker.js");
  const assets = join(outDir, "edge-assets");
  const version = (await readFile(join(root, "VERSION"), "utf8").catch(() => "")).trim();
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [join(root, "bin/worker.ts")],
    outfile: script,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    // postgres.js's workerd build speaks TCP through cloudflare:sockets.
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    // cloudflare:* come from workerd; node:* from its nodejs_compat layer (postgres.js wants
    // node:buffer, node:events and node:stream).
    external: ["cloudflare:*", "node:*"],
    plugins: [emptyOptionalImports],
    define: { __APP_VERSION__: JSON.stringify(version || "0.0.0-unknown") },
    minifySyntax: true,
    legalComments: "none",
    logLevel: "warning",
  });
  // Emptied first: a previous build's hashed files would otherwise be deployed forever.
  await rm(assets, { recursive: true, force: true });
  await buildWeb({ ifStale: true });
  if (!existsSync(join(WEB_DIST, "index.html"))) {
    throw new Error(`the web UI is not built (${WEB_DIST}/index.html is missing): run npm ci, then npm run build:web`);
  }
  await copyWebApp(WEB_DIST, assets);
  await writeFile(join(assets, "_headers"), edgeHeadersFile(process.env.PUBLIC_URL));
  const docsDir = join(assets, "api/docs/assets");
  await mkdir(docsDir, { recursive: true });
  for (const [name, from] of Object.entries(docScripts())) await copyFile(from, join(docsDir, name));
  return { script, assets };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const out = await buildEdge(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`built ${out.script} and ${out.assets}`);
}
