// Long-running work of the sidecar (scheduler, status worker, pollers). Each task registers how to stop
// it; the drain stops them all before the database closes, so no job is cut off mid-transaction by a
// closed pool.
import type { Logger } from "../shared/logger.ts";

export interface BackgroundTask {
  name: string;
  /** Stops taking new work and resolves once work in progress has finished. */
  stop(): Promise<void>;
}

export class BackgroundTasks {
  readonly #tasks: BackgroundTask[] = [];
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  add(task: BackgroundTask): void {
    this.#tasks.push(task);
  }

  async stopAll(): Promise<void> {
    const tasks = this.#tasks.splice(0).reverse();
    await Promise.all(
      tasks.map((t) => t.stop().catch((e: unknown) => this.#logger.error("background task failed to stop", { task: t.name, error: String(e) }))),
    );
  }
}
