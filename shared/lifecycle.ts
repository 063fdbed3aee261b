// The process lifecycle of spec 3.2: starting -> ready -> stopping. Only a process that drives a
// lifespan (the Node entries) creates one; an app mounted without it (a worker) is never closed by it.

export type LifecycleState = "starting" | "ready" | "stopping";

export class Lifecycle {
  #state: LifecycleState = "starting";
  #inFlight = 0;
  #idleWaiters: (() => void)[] = [];
  #stopping: (() => void)[] = [];

  get state(): LifecycleState {
    return this.#state;
  }
  get started(): boolean {
    return this.#state !== "starting";
  }
  get inFlight(): number {
    return this.#inFlight;
  }

  markReady(): void {
    if (this.#state === "starting") this.#state = "ready";
  }
  beginStopping(): void {
    if (this.#state === "stopping") return;
    this.#state = "stopping";
    for (const f of this.#stopping.splice(0)) f();
  }

  /** Runs `f` once the process starts stopping: for answers that never end by themselves (event streams). */
  onStopping(f: () => void): void {
    if (this.#state === "stopping") f();
    else this.#stopping.push(f);
  }

  /** Counts a request in; the returned function counts it out. */
  enter(): () => void {
    this.#inFlight++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#inFlight--;
      if (this.#inFlight === 0) for (const w of this.#idleWaiters.splice(0)) w();
    };
  }

  /** Resolves true once no request is in flight, or false when the timeout passes first. */
  waitIdle(timeoutMs: number): Promise<boolean> {
    if (this.#inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
