// Runs the critical-DOWN rule every 30 s in the sidecar. A failing round is logged and the next one
// tries again; it never takes the process down.
import { recordCriticalDowns } from "../../shared/services/status/critical-down.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";

const INTERVAL_MS = 30_000;

export function startStatusWorker(runtime: NodeRuntime): void {
  const { deps, database } = runtime;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = recordCriticalDowns({ db: database.db, clock: deps.clock, logger: deps.logger })
      .then((n) => n > 0 && deps.logger.warn("critical DOWN events recorded", { count: n }))
      .catch((e: unknown) => deps.logger.error("status worker round failed", { error: (e as Error).message }));
  };
  const timer = setInterval(tick, INTERVAL_MS);
  timer.unref();
  runtime.background.add({
    name: "status-worker",
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  });
}
