// The one shape of long-running work in a Node process: the sidecar's workers (sidecar/<worker>/) and
// the process's own listeners. The entry starts each worker once the process is ready; the drain stops
// them all before the HTTP server and the database close, so no work is cut off mid-transaction.
import type { Logger } from "../shared/logger.ts";

export interface Worker {
  /** Named in the logs of its start and stop failures. */
  readonly name: string;
  /** Begins the work. Must not take the process down: a worker that cannot work yet logs and retries. */
  start(): Promise<void> | void;
  /** Stops taking new work and resolves once work in progress has finished: what the drain waits for. */
  stop(): Promise<void>;
}

/** The workers a process runs; `stopAll` is the drain's (runtime/serve.ts) and the runtime's close. */
export class Workers {
  readonly #running: Worker[] = [];
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Starts `worker` and holds it for the drain, which stops it even when its start failed or is still going. */
  async start(worker: Worker): Promise<void> {
    this.#running.push(worker);
    try {
      await worker.start();
    } catch (e) {
      this.#logger.error("worker failed to start", { worker: worker.name, error: String(e) });
    }
  }

  /** Stops every worker (the last started first, all at once), each waited for; a failing stop is logged. */
  async stopAll(): Promise<void> {
    const workers = this.#running.splice(0).reverse();
    await Promise.all(
      workers.map((w) => w.stop().catch((e: unknown) => this.#logger.error("worker failed to stop", { worker: w.name, error: String(e) }))),
    );
  }
}
