// Dependency probes and the derived health state of DESIGN.md 3. The write-admission guard and the
// probes read the same snapshot, so what readyz reports is exactly what the guard enforces.
import { sql } from "drizzle-orm";
import type { Clock } from "./clock.ts";
import { type DatabaseProvider, queryRows } from "./db/database.ts";
import { type MigrationStatus, readMigrationLevel } from "./db/migration-level.ts";
import type { Lifecycle, LifecycleState } from "./lifecycle.ts";
import { withTimeout } from "./timeout.ts";

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

type ProbeOutcome = { checks: HealthSnapshot["checks"]; degraded: string[]; checked_at: Date };

const PROBE_TIMEOUT_MS = 2000;

export class HealthMonitor {
  readonly #database: DatabaseProvider;
  readonly #redis: RedisProbe | undefined;
  readonly #lifecycle: Lifecycle | undefined;
  readonly #clock: Clock;
  readonly #cacheMs: number;
  #last: ProbeOutcome | undefined;
  #inflight: Promise<void> | undefined;

  constructor(opts: {
    database: DatabaseProvider;
    redis?: RedisProbe | undefined;
    lifecycle?: Lifecycle | undefined;
    clock: Clock;
    cacheMs: number;
  }) {
    this.#database = opts.database;
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
    const stale = !this.#last || this.#clock.now().getTime() - this.#last.checked_at.getTime() >= this.#cacheMs;
    if (fresh || stale) {
      this.#inflight ??= this.#probe().finally(() => (this.#inflight = undefined));
      await this.#inflight;
    }
    return this.#derive(this.#last!);
  }

  async #probe(): Promise<void> {
    const lease = this.#database.lease();
    let database: ProbeResult = "ok";
    let migrations: MigrationStatus | "unknown" = "unknown";
    try {
      await withTimeout(queryRows(lease.db, sql`select 1`), PROBE_TIMEOUT_MS);
      migrations = (await withTimeout(readMigrationLevel(lease.db), PROBE_TIMEOUT_MS)).status;
    } catch {
      database = "error";
    } finally {
      await lease.release().catch(() => {});
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
    this.#last = { checks, degraded, checked_at: this.#clock.now() };
  }

  #derive(p: ProbeOutcome): HealthSnapshot {
    const state: LifecycleState = this.#lifecycle?.state ?? "ready";
    // Only "behind" blocks: a database migrated by a newer build is still readable and writable by
    // this one during a rolling upgrade (docs/decisions.md).
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
