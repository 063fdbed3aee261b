// The status pages worker: automatic incident proposals (docs/adr/0456-status-page-incidents.md). A
// round (shared/verbs/status-pages/incidents/auto-proposals.ts) reconciles every page with auto incidents
// on against what is down now: every pollMs, and soon after a monitor changes state (NOTIFY `monitors`,
// type "status"; a burst of changes is one round). Level-triggered, so a lost NOTIFY, a restart or a
// second sidecar only moves a proposal to the next round. A failing round is logged; the next retries.
import { reconcileAutoIncidents, type AutoOutcome } from "../../shared/verbs/status-pages/incidents/auto-proposals.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import { databaseListener } from "../../runtime/listen.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import type { Worker } from "../../runtime/worker.ts";

export interface StatusPagesWorkerOptions {
  /** A round at least this often. */
  pollMs: number;
  /** After a monitor's state change, a round within this (changes meanwhile join it). */
  debounceMs: number;
}
export const DEFAULT_STATUS_PAGES_OPTIONS: StatusPagesWorkerOptions = { pollMs: 5_000, debounceMs: 500 };

export interface StatusPagesWorker extends Worker {
  /** Runs one round now (tests). */
  tick(): Promise<AutoOutcome>;
}

/** Whether a NOTIFY `monitors` payload is a monitor's state change. */
const isStateChange = (payload: string) => {
  try {
    return (JSON.parse(payload) as { type?: unknown }).type === "status";
  } catch {
    return false;
  }
};

export function statusPagesWorker(
  runtime: Pick<NodeRuntime, "deps" | "database">,
  overrides: Partial<StatusPagesWorkerOptions> = {},
): StatusPagesWorker {
  const { deps } = runtime;
  const options = { ...DEFAULT_STATUS_PAGES_OPTIONS, ...overrides };
  const ctx = systemContext({ db: runtime.database.db, clock: deps.clock, random: deps.random });
  const listen = databaseListener(runtime.database);
  let running = false;
  let round: Promise<unknown> | undefined;
  let again = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let soonTimer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  const tick = () => reconcileAutoIncidents({ ctx, input: undefined });
  const schedule = (): void => {
    if (!running) return;
    // A round in progress may have read before the change: one more follows it.
    if (round) {
      again = true;
      return;
    }
    round = tick()
      .then((o) => {
        if (o.proposed + o.published + o.discarded > 0) deps.logger.info("status page incidents reconciled", { ...o });
      })
      .catch((e: unknown) => deps.logger.warn("status page incidents round failed; retrying", { error: String(e) }))
      .finally(() => {
        round = undefined;
        if (again) {
          again = false;
          schedule();
        }
      });
  };
  const soon = () => {
    if (soonTimer || !running) return;
    soonTimer = setTimeout(() => {
      soonTimer = undefined;
      schedule();
    }, options.debounceMs);
    soonTimer.unref();
  };

  return {
    name: "status-pages",
    async start() {
      running = true;
      if (listen)
        unlisten = await listen("monitors", (payload) => isStateChange(payload) && soon()).catch((e: unknown) => {
          deps.logger.warn("monitors LISTEN failed; status pages poll only", { error: String(e) });
          return undefined;
        });
      pollTimer = setInterval(schedule, options.pollMs);
      pollTimer.unref();
      schedule();
    },
    async stop() {
      running = false;
      clearInterval(pollTimer);
      clearTimeout(soonTimer);
      await unlisten?.().catch(() => {});
      await round;
    },
    tick,
  };
}
