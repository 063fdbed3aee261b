// The functions half as its own Node process (`npm run start:functions`), for split deployments.
// It shares PostgreSQL with the sidecar, which applies the migrations; this process only checks the level.
import { createApp } from "../functions/app.ts";
import { loadConfig, openRuntime } from "../runtime/node-deps.ts";
import { serveWithLifespan } from "../runtime/serve.ts";
import { startHttps } from "../runtime/tls/https-server.ts";

const config = loadConfig();
if (!config.DATABASE_URL) {
  process.stderr.write(
    "invalid configuration: DATABASE_URL expects a postgres:// URL (the functions process shares PostgreSQL with the sidecar)\n",
  );
  process.exit(1);
}
const runtime = await openRuntime(config, { defaultAgentBuilds: true });
const app = createApp(runtime.deps);
await serveWithLifespan(runtime, app.fetch);
// SVC_TLS=on: HTTPS with the active certificate too (the sidecar has migrated the database).
await startHttps(runtime, app.fetch);
runtime.deps.lifecycle.markReady();
runtime.deps.logger.info("ready", { mode: "functions" });
