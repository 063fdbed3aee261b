// What the all-in-one entry (`npm start`, bin/start.ts) runs: one Node process serving the functions app and running the
// sidecar's workers on PORT, on embedded PGlite under DATA_DIR unless DATABASE_URL is set. With
// --sidecar-only it is the sidecar of a split deployment (`npm run start:sidecar`), which needs
// DATABASE_URL. Either way it serves the routes only the sidecar can answer (the metrics scrape, the
// stream status, the server-sent events) and the WebSocket upgrades.
import { createApp } from "../functions/app.ts";
import { metricsRoutes } from "../functions/routes/metrics.ts";
import { streamStatusRoutes } from "../functions/routes/stream-status.ts";
import { keepFilesPrivate, prepareDataDir } from "../runtime/data-dir.ts";
import { loadConfig, openRuntime } from "../runtime/node-deps.ts";
import { serveWithLifespan } from "../runtime/serve.ts";
import { startHttps } from "../runtime/tls/https-server.ts";
import { upgradeRouter } from "../runtime/upgrade-router.ts";
import { settleStagedVaultKey } from "../runtime/vault-key-file.ts";
import type { Worker } from "../runtime/worker.ts";
import { agentsWorker } from "../sidecar/agents/agents-worker.ts";
import { discoveryWorker } from "../sidecar/discovery/discovery-worker.ts";
import { listenerWorker } from "../sidecar/discovery/listener/listener-worker.ts";
import { integrationsWorker } from "../sidecar/integrations/integrations-worker.ts";
import { monitorsWorker } from "../sidecar/monitors/monitors-worker.ts";
import { notificationsWorker } from "../sidecar/notifications/notifications-worker.ts";
import { schedulerWorker } from "../sidecar/scheduler/scheduler-worker.ts";
import { importFileAvatars } from "../sidecar/startup/import-file-avatars.ts";
import { applyMigrations } from "../sidecar/startup/migrate.ts";
import { announceSetupToken } from "../sidecar/startup/setup-token.ts";
import { encryptStoredSecrets } from "../sidecar/startup/vault-secrets.ts";
import { jsonLogger } from "../shared/logger.ts";
import { statusWorker } from "../sidecar/status/status-worker.ts";
import { statusPagesWorker } from "../sidecar/status-pages/status-pages-worker.ts";
import { streamsWorker } from "../sidecar/streams/streams-worker.ts";
import { telemetryWorker } from "../sidecar/telemetry/telemetry-worker.ts";

// Before anything is written: every file this process creates (the embedded database, the vault key,
// backups) is the owner's only.
keepFilesPrivate();
const sidecarOnly = process.argv.includes("--sidecar-only");
const config = loadConfig();
if (sidecarOnly && !config.DATABASE_URL) {
  process.stderr.write(
    "invalid configuration: DATABASE_URL expects a postgres:// URL (a split sidecar shares PostgreSQL with the functions)\n",
  );
  process.exit(1);
}
if (!sidecarOnly) prepareDataDir(config.DATA_DIR, jsonLogger(config.LOG_LEVEL));

const runtime = await openRuntime(config, { vaultKeyFile: !sidecarOnly, defaultAgentBuilds: true }).catch((e: unknown) => {
  process.stderr.write(`start failed: ${(e as Error).message}\n`);
  process.exit(1);
});
const { deps } = runtime;
const upgrades = upgradeRouter();
const streams = streamsWorker(runtime, upgrades);
const agentLinks = agentsWorker(runtime, upgrades);
const workers: Worker[] = [
  schedulerWorker(runtime),
  statusWorker(runtime),
  telemetryWorker(runtime),
  streams,
  agentLinks,
  monitorsWorker(runtime),
  notificationsWorker(runtime),
  discoveryWorker(runtime, { agentLinks: agentLinks.discovery }),
  listenerWorker(runtime),
  integrationsWorker(runtime),
  statusPagesWorker(runtime),
];

const app = createApp(deps, { events: streams.events });
metricsRoutes(app);
streamStatusRoutes(app, streams);
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
// A rotation of DATA_DIR/vault.key that a crash interrupted is finished or rolled back before the vault writes.
await settleStagedVaultKey(runtime);
await encryptStoredSecrets(runtime);
await announceSetupToken(runtime);
await importFileAvatars(runtime);
// SVC_TLS=on: HTTPS on SVC_HTTPS_PORT with the active certificate (generated when none is), before ready.
await startHttps(runtime, app.fetch, upgrades);
deps.lifecycle.markReady();
upgrades.attach(server);
await Promise.all(workers.map((worker) => runtime.background.start(worker)));
deps.logger.info("ready", { mode: sidecarOnly ? "sidecar" : "all-in-one", database: runtime.database.provider.kind });
