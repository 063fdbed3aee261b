// The status worker: runs the critical-DOWN rule (shared/verbs/status/critical-down.ts) every 30 s
// as the system actor. A failing round is logged and the next one tries again; it never takes the
// process down. stop() ends the timer and waits for the round in progress.
import { systemContext } from "../../shared/verbs/verb-context.ts";
import { recordCriticalDowns } from "../../shared/verbs/status/critical-down.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import type { Worker } from "../../runtime/worker.ts";

const INTERVAL_MS = 30_000;

export function statusWorker({ deps, database }: Pick<NodeRuntime, "deps" | "database">): Worker {
  const { logger } = deps;
  const ctx = systemContext({ db: database.db, clock: deps.clock, random: deps.random });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const round = () => {
    running = recordCriticalDowns({ ctx, input: { logger } })
      .then((n) => n > 0 && logger.warn("critical DOWN events recorded", { count: n }))
      .catch((e: unknown) => logger.error("status worker round failed", { error: (e as Error).message }));
  };
  return {
    name: "status-worker",
    start() {
      timer = setInterval(round, INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
