// The sidecar's scheduler (spec 6.7, DESIGN.md 1): croner fires each job at its UTC slot (analytics
// 02:30, retention 03:30) and the shared runner runs it under its advisory lock, so any number of
// sidecars can schedule the same jobs and only one runs each slot (the others record "skipped"). A run
// that fails is recorded and logged; the job simply runs again at its next slot. Jobs run as the system
// actor. The crons begin when it is constructed (scheduler-worker.ts does so at the worker's start);
// stop() ends the timers, asks a running job to stop at its next batch, and waits for it.
import { Cron } from "croner";
import { type Clock, cryptoRandom } from "../../shared/clock.ts";
import { advisoryLockFor } from "../../shared/db/advisory-lock.ts";
import type { DatabaseProvider } from "../../shared/db/database.ts";
import type { Logger } from "../../shared/logger.ts";
import type { JobDefinition, JobDeps } from "../../shared/services/jobs/job.ts";
import type { JobRun } from "../../shared/services/jobs/job-runs.ts";
import { JOBS } from "../../shared/services/jobs/registry.ts";
import { runJob } from "../../shared/services/jobs/run-job.ts";
import { CRON_OPTIONS } from "../../shared/services/jobs/schedule.ts";
import { systemContext } from "../../shared/services/verb-context.ts";

export interface SchedulerOptions {
  database: DatabaseProvider;
  clock: Clock;
  logger: Logger;
  jobs?: readonly JobDefinition[];
  /** Capabilities handed to the jobs (the CVE sync's outbound HTTP and feed files; the certificates job's vault, ACME and HTTPS reload). */
  deps?: JobDeps;
}

export class Scheduler {
  readonly #opts: SchedulerOptions;
  readonly #crons = new Map<string, { job: JobDefinition; cron: Cron }>();
  readonly #inFlight = new Set<Promise<JobRun | undefined>>();
  readonly #abort = new AbortController();

  constructor(opts: SchedulerOptions) {
    this.#opts = opts;
    for (const job of opts.jobs ?? JOBS) {
      // protect: a slot that comes while the previous run is still going is skipped in this process.
      const cron = new Cron(
        job.schedule,
        {
          ...CRON_OPTIONS,
          protect: () => opts.logger.warn("job slot skipped: previous run still going", { job: job.name }),
          // #run catches everything; this is the belt to its braces, so a slot can never crash the process.
          catch: (e: unknown) => opts.logger.error("scheduled job threw", { job: job.name, error: String(e) }),
        },
        async () => {
          await this.#run(job);
        },
      );
      this.#crons.set(job.name, { job, cron });
    }
    opts.logger.info("scheduler started", { jobs: [...this.#crons.values()].map(({ job, cron }) => ({ job: job.name, next_run_at: cron.nextRun()?.toISOString() })) });
  }

  /** croner's next slot of a job after `from` (default now), in UTC. */
  nextRun(name: string, from?: Date): Date | null {
    return this.#entry(name).cron.nextRun(from);
  }

  /** Fires a job now through croner, exactly as its timer does (tests, and operators via a REPL). */
  async trigger(name: string): Promise<void> {
    await this.#entry(name).cron.trigger();
  }

  /** The run records of slots fired so far are in job_runs; this resolves when the in-flight ones end. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
  }

  async stop(): Promise<void> {
    for (const { cron } of this.#crons.values()) cron.stop();
    this.#abort.abort();
    await this.idle();
    this.#opts.logger.info("scheduler stopped");
  }

  #entry(name: string) {
    const entry = this.#crons.get(name);
    if (!entry) throw new Error(`No scheduled job named ${name}.`);
    return entry;
  }

  async #run(job: JobDefinition): Promise<JobRun | undefined> {
    if (this.#abort.signal.aborted) return undefined;
    const { database, clock, logger } = this.#opts;
    const lease = database.lease();
    const ctx = systemContext({ db: lease.db, clock, random: cryptoRandom });
    const run = runJob({ ctx, lock: advisoryLockFor(database), logger, signal: this.#abort.signal, deps: this.#opts.deps }, job, "schedule")
      // Only recording can throw (the database is away): logged, and the next slot tries again.
      .catch((e: unknown) => {
        logger.error("scheduled job could not run", { job: job.name, error: e instanceof Error ? e.message : String(e) });
        return undefined;
      })
      .finally(() => lease.release());
    this.#inFlight.add(run);
    try {
      return await run;
    } finally {
      this.#inFlight.delete(run);
    }
  }
}
