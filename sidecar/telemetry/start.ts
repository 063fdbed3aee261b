// Starts the SNMP poller and registers it as a background task (the drain stops it before the database
// closes). Starting never throws: a poller that cannot load its schedules logs and retries each minute.
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import { databaseListener } from "./listen.ts";
import { createSnmpPoller, type SnmpPoller } from "./poller.ts";

export function startTelemetryPoller(runtime: NodeRuntime): SnmpPoller {
  const { deps } = runtime;
  const poller = createSnmpPoller({ db: runtime.database.db, clock: deps.clock, logger: deps.logger, listen: databaseListener(runtime.database) });
  runtime.background.add(poller);
  poller.start().catch((e: unknown) => deps.logger.error("telemetry poller failed to start", { error: String(e) }));
  return poller;
}
