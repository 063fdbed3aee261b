// Dependency probes and the derived health state of docs/architecture.md, API contracts. The admission guard and the probes
// read the same state, so what readyz reports is exactly what the guard enforces.
import { sql } from "drizzle-orm";
import type { Clock } from "./clock.ts";
import { type DatabaseAccess, type DbLease, queryRows } from "./db/database.ts";
import { type MigrationStatus, readMigrationLevel } from "./db/migration-level.ts";
import { isDatabaseUnavailable } from "./verbs/database-errors/unavailable.ts";
import type { Lifecycle, LifecycleState } from "./lifecycle.ts";
import { TimeoutError, withTimeout } from "./timeout.ts";

export type DerivedHealth = "starting" | "ready" | "degraded" | "not_ready" | "stopping";
export type ProbeResult = "ok" | "error";

export interface RedisProbe {
  ping(): Promise<unknown>;
}

export interface HealthSnapshot {
  state: LifecycleState;
  health: DerivedHealth;
  ready: boolean;
  checks: { database: ProbeResult; migrations: MigrationStatus | "unknown"; redis?: ProbeResult };
  degraded: string[];
  writes_permitted: boolean;
  /** Why writes are refused, when they are: the error code the guard answers with. */
  refusal?: "SERVICE_NOT_READY" | "SERVER_DRAINING";
  checked_at: Date;
}

type ProbeOutcome = {
  checks: HealthSnapshot["checks"];
  degraded: string[];
  checked_at: Date;
  /** The database failed with a connection-level error, or left a probe unanswered: reads are refused. */
  unreachable: boolean;
};

const PROBE_TIMEOUT_MS = 2000;
/** While the database is down, the monitor re-probes at most this often, one probe at a time. */
const RECHECK_MS = 1000;

/** Called when the database becomes known down; see HealthMonitor.onDown. */
export type DownListener = () => void;

export class HealthMonitor {
  readonly #database: DatabaseAccess;
  readonly #probeDatabase: DatabaseAccess;
  /** Over a network an unanswered probe means the database is gone; embedded (PGlite) it is only busy. */
  readonly #silenceIsDown: boolean;
  /** The probe's query still running from an earlier probe that gave up on it (a silent socket). */
  #pendingQuery: Promise<MigrationStatus> | undefined;
  readonly #downListeners = new Set<DownListener>();
  /** The down listeners were told of the current outage. */
  #announced = false;
  readonly #redis: RedisProbe | undefined;
  readonly #lifecycle: Lifecycle | undefined;
  readonly #clock: Clock;
  readonly #cacheMs: number;
  #last: ProbeOutcome | undefined;
  #inflight: Promise<void> | undefined;
  #probes = 0;
  #lastStartMs = Number.NEGATIVE_INFINITY;
  /** Failures reported so far: a probe that began before the latest one cannot clear it. */
  #reports = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(opts: {
    database: DatabaseAccess;
    /**
     * Where the probes run, when not on `database`: a connection of their own (runtime/database.ts), so a
     * probe never queues behind a saturated pool and an unanswered one means the server is not answering.
     */
    probeDatabase?: DatabaseAccess | undefined;
    redis?: RedisProbe | undefined;
    lifecycle?: Lifecycle | undefined;
    clock: Clock;
    cacheMs: number;
  }) {
    this.#database = opts.database;
    this.#probeDatabase = opts.probeDatabase ?? opts.database;
    this.#silenceIsDown = opts.database.kind === "postgres";
    this.#redis = opts.redis;
    this.#lifecycle = opts.lifecycle;
    this.#clock = opts.clock;
    this.#cacheMs = opts.cacheMs;
  }

  /**
   * The current health. Dependency probes are cached for `cacheMs` so a burst of writes costs one
   * probe; `fresh` forces a new probe (readyz does, so an operator always sees the truth).
   */
  async snapshot(fresh = false): Promise<HealthSnapshot> {
    const stale = !this.#last || this.#now() - this.#last.checked_at.getTime() >= this.#cacheMs;
    if (fresh || stale) await this.#run();
    return this.#derive(this.#last!);
  }

  /**
   * True while the database is known unreachable: a query, or the last probe, failed with a
   * connection-level error, or the probe got no answer within PROBE_TIMEOUT_MS on its own connection
   * (packets dropped by a partition never error). Never probes.
   */
  get databaseDown(): boolean {
    return this.#last?.unreachable === true;
  }

  /** The health as last known, without probing; undefined before the first probe. */
  lastKnown(): HealthSnapshot | undefined {
    return this.#last && this.#derive(this.#last);
  }

  /**
   * Calls `listener` each time a probe finds the database down (once per outage) until the returned
   * function is called: the admission guard then cuts the requests still waiting on the database,
   * instead of letting them wait on silent sockets until the network returns.
   */
  onDown(listener: DownListener): () => void {
    this.#downListeners.add(listener);
    return () => this.#downListeners.delete(listener);
  }

  /**
   * A request has waited on the database for a while: probe (at the re-probe pace, one probe at a
   * time) so a database that stopped answering is found out, and the requests waiting on it are cut,
   * within a probe's timeout. A database that answers the probe is slow, not down: nothing changes.
   * Embedded PGlite cannot be partitioned, so this does nothing there.
   */
  suspect(): void {
    if (!this.#silenceIsDown || this.databaseDown || this.#inflight) return;
    const wait = this.#lastStartMs + RECHECK_MS - this.#now();
    if (wait <= 0) void this.#run();
  }

  /** Probes run so far (tests count them: a read while healthy must start none). */
  get probes(): number {
    return this.#probes;
  }

  /**
   * A query failed because the database cannot answer (shared/verbs/database-errors/unavailable.ts):
   * marks it down at once, so the reads after it fail fast, and probes right away (a lone dropped
   * connection is cleared by that probe), then at the re-probe pace while down. Only a connection-level failure comes here,
   * never a slow query. Returns the probe it started, if it started one.
   */
  reportUnavailable(): Promise<void> | undefined {
    this.#reports++;
    if (this.databaseDown) return this.recheck();
    const checks: HealthSnapshot["checks"] = { ...this.#last?.checks, database: "error", migrations: "unknown" };
    this.#last = { checks, degraded: this.#last?.degraded ?? [], checked_at: this.#clock.now(), unreachable: true };
    return this.#inflight ? undefined : this.#run();
  }

  /**
   * While the database is down: starts a re-probe unless one is running or one began less than
   * RECHECK_MS ago (then one is scheduled). Returns the probe it started, if it started one.
   */
  recheck(): Promise<void> | undefined {
    if (!this.databaseDown || this.#inflight) return undefined;
    const wait = this.#lastStartMs + RECHECK_MS - this.#now();
    if (wait <= 0) return this.#run();
    this.#schedule(wait);
    return undefined;
  }

  #schedule(ms: number): void {
    if (this.#timer !== undefined || this.#lifecycle?.state === "stopping") return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.recheck();
    }, ms);
    // Node: the re-probe never holds a finished process open (workerd timers have no unref).
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #cancelRecheck(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #run(): Promise<void> {
    this.#inflight ??= this.#probe().finally(() => {
      this.#inflight = undefined;
      if (this.databaseDown) this.recheck();
      else this.#cancelRecheck();
    });
    return this.#inflight;
  }

  /** Never rejects: whatever fails is recorded as a failed check. */
  async #probe(): Promise<void> {
    this.#probes++;
    this.#lastStartMs = this.#now();
    const reports = this.#reports;
    let lease: DbLease | undefined;
    let database: ProbeResult = "ok";
    let migrations: MigrationStatus | "unknown" = "unknown";
    let unreachable = false;
    /** The probe itself found the database gone (not merely a query's report of it). */
    let confirmed = false;
    try {
      lease = this.#probeDatabase.lease();
      const db = lease.db;
      const query = async () => {
        await queryRows(db, sql`select 1`);
        return (await readMigrationLevel(db)).status;
      };
      // A query an earlier probe gave up on is still queued on the probe's connection: wait on it rather
      // than queue another behind it (a long partition would otherwise pile one up per re-probe). A
      // per-request client (the edge) is ended with its lease, and its query with it.
      const pending = lease.perRequest ? query() : (this.#pendingQuery ??= query().finally(() => (this.#pendingQuery = undefined)));
      migrations = await withTimeout(pending, PROBE_TIMEOUT_MS);
    } catch (e) {
      database = "error";
      confirmed = isDatabaseUnavailable(e) || (e instanceof TimeoutError && this.#silenceIsDown);
      unreachable = confirmed || this.databaseDown;
    } finally {
      await lease?.release().catch(() => {});
    }
    const checks: HealthSnapshot["checks"] = { database, migrations };
    const degraded: string[] = [];
    if (this.#redis) {
      checks.redis = await withTimeout(this.#redis.ping(), PROBE_TIMEOUT_MS).then(
        () => "ok" as const,
        () => "error" as const,
      );
      if (checks.redis === "error") degraded.push("redis");
    }
    // A failure reported while this probe ran may be newer than its success: the next probe decides.
    if (this.#reports !== reports) {
      Object.assign(checks, { database: "error", migrations: "unknown" });
      unreachable = true;
    }
    this.#last = { checks, degraded, checked_at: this.#clock.now(), unreachable };
    if (!unreachable) this.#announced = false;
    else if (confirmed && !this.#announced) {
      // Only a probe's own verdict cuts requests in flight: one query's lost connection (a terminated
      // backend) marks the database down for new reads until the probe it starts says otherwise, but
      // does not fail the requests that are getting answers on other connections.
      this.#announced = true;
      for (const listener of [...this.#downListeners]) listener();
    }
  }

  #now(): number {
    return this.#clock.now().getTime();
  }

  #derive(p: ProbeOutcome): HealthSnapshot {
    const state: LifecycleState = this.#lifecycle?.state ?? "ready";
    // Only "behind" blocks: a database migrated by a newer build is still readable and writable by
    // this one during a rolling upgrade (docs/adr/0009-a-schema-ahead-of-the-build-is-not-not-ready.md).
    const dependenciesOk = p.checks.database === "ok" && p.checks.migrations !== "behind";
    let health: DerivedHealth;
    if (state === "stopping") health = "stopping";
    else if (state === "starting") health = "starting";
    else if (!dependenciesOk) health = "not_ready";
    else if (p.degraded.length > 0) health = "degraded";
    else health = "ready";
    const writes_permitted = state === "ready" && dependenciesOk;
    const snap: HealthSnapshot = {
      state,
      health,
      ready: state === "ready" && dependenciesOk,
      checks: p.checks,
      degraded: p.degraded,
      writes_permitted,
      checked_at: p.checked_at,
    };
    if (!writes_permitted) snap.refusal = state === "stopping" ? "SERVER_DRAINING" : "SERVICE_NOT_READY";
    return snap;
  }
}
