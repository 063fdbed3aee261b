// The scheduled sync of integrations (issue 14): every pollMs it claims what is due (monitoring
// integrations, hypervisor and Docker provider configs: claimDueSyncs, SKIP LOCKED with next_sync_at
// advanced in the claim, so two sidecars never sync one row twice) and runs each with its runner, at most
// `concurrency` at once. A runner records its own outcome on its row; one that throws has the reason
// recorded by recordSyncFailure, and the worker goes on. stop() takes nothing new and waits for the syncs
// in flight (each is bounded by its outbound timeouts).
import { claimDueSyncs, type DueKind, type DueSync } from "../../shared/verbs/integrations/scheduled/claim-due.ts";
import { recordSyncFailure } from "../../shared/verbs/integrations/scheduled/record-failure.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import type { Worker } from "../../runtime/worker.ts";
import { DEFAULT_INTEGRATIONS_OPTIONS, type IntegrationsWorkerOptions } from "./options.ts";
import { defaultSyncRunners, type SyncRunner } from "./sync-runners.ts";

export interface IntegrationsWorker extends Worker {
  /** Runs one claim round now and waits for the syncs it started (tests). */
  tick(): Promise<DueSync[]>;
  /** The syncs running now, as `<kind>:<id>`. */
  running(): string[];
}

export interface IntegrationsWorkerOverrides extends Partial<IntegrationsWorkerOptions> {
  /** Runners by kind, over the built-in ones (tests). */
  runners?: Partial<Record<DueKind, SyncRunner>>;
}

export function integrationsWorker(
  runtime: Pick<NodeRuntime, "deps" | "database">,
  overrides: IntegrationsWorkerOverrides = {},
): IntegrationsWorker {
  const { deps } = runtime;
  const { runners: runnerOverrides, ...rest } = overrides;
  const options: IntegrationsWorkerOptions = { ...DEFAULT_INTEGRATIONS_OPTIONS, ...rest };
  const runners: Record<DueKind, SyncRunner> = { ...defaultSyncRunners, ...runnerOverrides };
  const ctx = systemContext({
    db: runtime.database.db,
    clock: deps.clock,
    random: deps.random,
    vault: deps.vault,
    outbound: deps.outbound,
  });
  const held = new Map<string, Promise<void>>();
  let running = false;
  let round: Promise<DueSync[]> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const execute = async (due: DueSync): Promise<void> => {
    try {
      const outcome = await runners[due.kind](ctx, due.id);
      if (!outcome.ok) deps.logger.warn("integration sync failed", { kind: due.kind, id: due.id, error: outcome.error });
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      deps.logger.warn("integration sync threw", { kind: due.kind, id: due.id, error });
      await recordSyncFailure({ ctx, input: { kind: due.kind, id: due.id, error } }).catch((f: unknown) =>
        deps.logger.error("integration sync failure not recorded", { kind: due.kind, id: due.id, error: String(f) }),
      );
    }
  };

  const runRound = async (): Promise<DueSync[]> => {
    const room = options.concurrency - held.size;
    if (room <= 0) return [];
    const claimed = await claimDueSyncs({ ctx, input: { limit: room } });
    for (const due of claimed) {
      const key = `${due.kind}:${due.id}`;
      // A sync still running past its interval is not started twice here: this turn is skipped (the
      // claim already moved the row to its next interval).
      if (held.has(key)) continue;
      held.set(
        key,
        execute(due).finally(() => held.delete(key)),
      );
    }
    return claimed;
  };

  const schedule = (): void => {
    if (!running || round) return;
    round = runRound()
      .catch((e: unknown) => {
        deps.logger.warn("integrations claim failed; retrying", { error: String(e) });
        return [];
      })
      .finally(() => {
        round = undefined;
      });
  };

  return {
    name: "integrations",
    start() {
      running = true;
      timer = setInterval(schedule, options.pollMs);
      timer.unref();
      schedule();
    },
    async stop() {
      running = false;
      clearInterval(timer);
      await round;
      await Promise.allSettled([...held.values()]);
    },
    async tick() {
      const claimed = await runRound();
      await Promise.allSettled([...held.values()]);
      return claimed;
    },
    running: () => [...held.keys()],
  };
}
