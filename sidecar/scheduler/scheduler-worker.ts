// The scheduler (scheduler.ts) as this process's worker: its crons begin at start(), on the runtime's
// database; stop() (the drain) ends them and waits for the job in progress.
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import type { Worker } from "../../runtime/worker.ts";
import { Scheduler } from "./scheduler.ts";

export function schedulerWorker({ deps }: Pick<NodeRuntime, "deps">): Worker {
  let scheduler: Scheduler | undefined;
  return {
    name: "scheduler",
    start() {
      scheduler = new Scheduler({ database: deps.database, clock: deps.clock, logger: deps.logger, deps });
    },
    stop: async () => scheduler?.stop(),
  };
}
