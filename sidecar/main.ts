// The all-in-one entry (`npm start`): one Node process serving the functions app and the sidecar on
// PORT, on embedded PGlite under DATA_DIR unless DATABASE_URL is set. With --sidecar-only it is the
// sidecar of a split deployment (`npm run start:sidecar`), which needs DATABASE_URL.
import { createApp } from "../functions/app.ts";
import { sidecarRoutes } from "./metrics/routes.ts";
import { applyMigrations } from "./startup/migrate.ts";
import { importFileAvatars } from "./startup/import-file-avatars.ts";
import { announceSetupToken } from "./startup/setup-token.ts";
import { startScheduler } from "./scheduler/scheduler.ts";
import { startStatusWorker } from "./workers/status-worker.ts";
import { startTelemetryPoller } from "./telemetry/start.ts";
import { uiStreams } from "./streams/streams.ts";
import { loadConfig, openRuntime } from "../runtime/node-deps.ts";
import { serveWithLifespan } from "../runtime/serve.ts";

const sidecarOnly = process.argv.includes("--sidecar-only");
const config = loadConfig();
if (sidecarOnly && !config.DATABASE_URL) {
  process.stderr.write("invalid configuration: DATABASE_URL expects a postgres:// URL (a split sidecar shares PostgreSQL with the functions)\n");
  process.exit(1);
}

const runtime = await openRuntime(config).catch((e: unknown) => {
  process.stderr.write(`start failed: ${(e as Error).message}\n`);
  process.exit(1);
});
const { deps } = runtime;
const app = createApp(deps);
sidecarRoutes(app, runtime);
const streams = uiStreams(app, runtime);
const server = await serveWithLifespan(runtime, app.fetch);

// Migrations are applied on start; while the database cannot be reached the process keeps trying and
// startupz answers 503, as an orchestrator expects of a dependency that comes up later.
for (let attempt = 1; ; attempt++) {
  try {
    await applyMigrations(runtime.database);
    break;
  } catch (e) {
    if (runtime.database.pglite || deps.lifecycle.state === "stopping") {
      deps.logger.error("migrations failed", { error: (e as Error).message });
      process.exit(1);
    }
    deps.logger.warn("migrations failed; retrying", { attempt, error: (e as Error).message });
    await new Promise((r) => setTimeout(r, Math.min(attempt, 5) * 1000));
  }
}
await announceSetupToken(runtime);
await importFileAvatars(runtime);
deps.lifecycle.markReady();
runtime.background.add(startScheduler(runtime));
startStatusWorker(runtime);
startTelemetryPoller(runtime);
runtime.background.add(streams.start(server));
deps.logger.info("ready", { mode: sidecarOnly ? "sidecar" : "all-in-one", database: runtime.database.provider.kind });
