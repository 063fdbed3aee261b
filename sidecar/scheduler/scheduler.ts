// The sidecar's scheduler (spec 6.7, docs/architecture.md, the two halves): croner fires each job at its UTC slot (analytics
// 02:30, retention 03:30) and the shared runner runs it under its advisory lock, so any number of
// sidecars can schedule the same jobs and only one runs each slot (the others record "skipped"). A run
// that fails is recorded and logged; the job simply runs again at its next slot. Jobs run as the system
// actor. The crons begin when it is constructed (scheduler-worker.ts does so at the worker's start);
// stop() ends the timers, asks a running job to stop at its next batch, and waits for it. A job whose
// schedule is an operator's setting (db_backup: backup_schedule) has its cron re-read every minute and
// replaced when it changed (null: no slots), so a changed setting needs no restart.
import { Cron } from "croner";
import { type Clock, cryptoRandom } from "../../shared/clock.ts";
import { advisoryLockFor } from "../../shared/db/advisory-lock.ts";
import type { DatabaseAccess } from "../../shared/db/database.ts";
import type { Logger } from "../../shared/logger.ts";
import type { JobDefinition, JobDeps } from "../../shared/verbs/jobs/job.ts";
import type { JobRun } from "../../shared/verbs/jobs/job-runs.ts";
import { JOBS } from "../../shared/verbs/jobs/registry.ts";
import { runJob } from "../../shared/verbs/jobs/run-job.ts";
import { CRON_OPTIONS } from "../../shared/verbs/jobs/schedule.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";

export interface SchedulerOptions {
  database: DatabaseAccess;
  clock: Clock;
  logger: Logger;
  jobs?: readonly JobDefinition[];
  /** Capabilities handed to the jobs (the CVE sync's outbound HTTP and feed files; the certificates job's vault, ACME and HTTPS reload; the backups). */
  deps?: JobDeps;
  /** How often the schedules that are settings are re-read (default a minute). */
  scheduleRefreshMs?: number;
}

const SCHEDULE_REFRESH_MS = 60_000;

export class Scheduler {
  readonly #opts: SchedulerOptions;
  readonly #crons = new Map<string, { job: JobDefinition; schedule: string | null; cron: Cron | null }>();
  readonly #inFlight = new Set<Promise<JobRun | undefined>>();
  readonly #abort = new AbortController();
  readonly #refresh: ReturnType<typeof setInterval> | undefined;
  #refreshing: Promise<void> = Promise.resolve();

  constructor(opts: SchedulerOptions) {
    this.#opts = opts;
    for (const job of opts.jobs ?? JOBS) this.#crons.set(job.name, { job, schedule: job.schedule, cron: this.#cron(job, job.schedule) });
    opts.logger.info("scheduler started", {
      jobs: [...this.#crons.values()].map(({ job, cron }) => ({ job: job.name, next_run_at: cron?.nextRun()?.toISOString() ?? null })),
    });
    if ([...this.#crons.values()].some(({ job }) => job.scheduleSetting)) {
      void this.refreshSchedules();
      this.#refresh = setInterval(() => void this.refreshSchedules(), opts.scheduleRefreshMs ?? SCHEDULE_REFRESH_MS);
      this.#refresh.unref();
    }
  }

  #cron(job: JobDefinition, schedule: string | null): Cron | null {
    if (schedule === null) return null;
    // protect: a slot that comes while the previous run is still going is skipped in this process.
    return new Cron(
      schedule,
      {
        ...CRON_OPTIONS,
        protect: () => this.#opts.logger.warn("job slot skipped: previous run still going", { job: job.name }),
        // #run catches everything; this is the belt to its braces, so a slot can never crash the process.
        catch: (e: unknown) => this.#opts.logger.error("scheduled job threw", { job: job.name, error: String(e) }),
      },
      async () => {
        await this.#run(job);
      },
    );
  }

  /**
   * Re-reads the schedules that are settings and replaces a changed cron (a run in progress goes on).
   * A schedule that cannot be read or parsed keeps the current cron, logged.
   */
  refreshSchedules(): Promise<void> {
    // One refresh at a time; stop() waits for the one in progress.
    this.#refreshing = this.#refreshing.then(() =>
      this.#refreshNow().catch((e: unknown) =>
        this.#opts.logger.warn("job schedules not refreshed", { error: e instanceof Error ? e.message : String(e) }),
      ),
    );
    return this.#refreshing;
  }

  async #refreshNow(): Promise<void> {
    if (this.#abort.signal.aborted) return;
    const lease = this.#opts.database.lease();
    try {
      for (const entry of this.#crons.values()) {
        const { job } = entry;
        if (!job.scheduleSetting) continue;
        try {
          const schedule = await job.scheduleSetting(lease.db);
          if (schedule === entry.schedule || this.#abort.signal.aborted) continue;
          const cron = this.#cron(job, schedule);
          entry.cron?.stop();
          Object.assign(entry, { schedule, cron });
          this.#opts.logger.info("job schedule changed", { job: job.name, schedule, next_run_at: cron?.nextRun()?.toISOString() ?? null });
        } catch (e) {
          this.#opts.logger.warn("job schedule not refreshed", { job: job.name, error: e instanceof Error ? e.message : String(e) });
        }
      }
    } finally {
      await lease.release();
    }
  }

  /** The cron a job follows now (null: its setting disables its slots). */
  schedule(name: string): string | null {
    return this.#entry(name).schedule;
  }

  /** croner's next slot of a job after `from` (default now), in UTC. */
  nextRun(name: string, from?: Date): Date | null {
    return this.#entry(name).cron?.nextRun(from) ?? null;
  }

  /** Fires a job now through croner, exactly as its timer does (tests, and operators via a REPL). */
  async trigger(name: string): Promise<void> {
    await this.#entry(name).cron?.trigger();
  }

  /** The run records of slots fired so far are in job_runs; this resolves when the in-flight ones end. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
  }

  async stop(): Promise<void> {
    clearInterval(this.#refresh);
    this.#abort.abort();
    await this.#refreshing;
    for (const { cron } of this.#crons.values()) cron?.stop();
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
