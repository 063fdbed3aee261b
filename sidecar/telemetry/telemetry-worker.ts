// The SNMP poller (poller.ts) as this process's worker, on the runtime's database and LISTEN. Its
// start never throws: a poller that cannot load its schedules logs and retries each minute.
import { databaseListener } from "../../runtime/listen.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import { createSnmpPoller, type SnmpPoller } from "./poller.ts";

export function telemetryWorker({ deps, database }: Pick<NodeRuntime, "deps" | "database">): SnmpPoller {
  return createSnmpPoller({
    db: database.db,
    clock: deps.clock,
    logger: deps.logger,
    vault: deps.vault,
    listen: databaseListener(database),
  });
}
