// Shared set-up of the delivery worker tests: the app with signed-in actors, the worker on the app's
// runtime with fast timers, a loopback HTTP peer with programmable answers (tests/helpers/http-peer.ts),
// and alerts enqueued through the agreed hand-off (enqueueAlert) in a verb's transaction, as the monitor
// runner does. The worker's clock runs with the wall clock and can be moved ahead (`advance`), so a test
// of minutes-long escalations or quiet hours never sleeps for them.
import { expect } from "vitest";
import { type NotificationsWorker, notificationsWorker } from "../../../sidecar/notifications/notifications-worker.ts";
import type { AlertInput } from "../../../shared/verbs/notifications/enqueue-alert.ts";
import { enqueueAlerts } from "../../helpers/enqueue-alerts.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import type { Clock } from "../../../shared/clock.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";

export { type Peer, type Received, startPeer } from "../../helpers/http-peer.ts";

/** The wall clock plus an offset that only grows: time moves on as usual and jumps when told. */
export interface MovableClock extends Clock {
  advance(ms: number): void;
}

function movableClock(): MovableClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
  };
}

export interface Harness extends Actors {
  worker: NotificationsWorker;
  /** The worker's clock (and the enqueued alerts' occurred_at). */
  clock: MovableClock;
  enqueue(...alerts: Partial<AlertInput>[]): Promise<void>;
  /**
   * Moves the worker's clock ahead once no delivery is in flight. A claim's lease runs on that clock
   * (leaseMs, 10 s here): a jump of minutes while a send is still out would expire its lease, and the
   * worker would claim and send the same delivery again (a receiver that has the request while the
   * attempt is not yet recorded: a loaded machine).
   */
  advance(ms: number): Promise<void>;
  /** Polls `check` until it holds (bounded: 10 s). */
  until<T>(check: () => Promise<T | undefined | false>, what: string): Promise<T>;
  sink(
    provider_type: string,
    provider_config: Record<string, unknown>,
    route?: Record<string, unknown>,
  ): Promise<{ id: number; secret?: string }>;
  close(): Promise<void>;
}

export async function createHarness(
  options: {
    groupingDelayMs?: number;
    maxAttempts?: number;
    timeoutMs?: number;
    perSinkConcurrency?: number;
    env?: Record<string, string>;
  } = {},
): Promise<Harness> {
  const a = await createActors(options.env);
  const clock = movableClock();
  const runtime = { deps: { ...a.t.runtime.deps, clock }, database: a.t.runtime.database };
  const worker = notificationsWorker(runtime, {
    groupingDelayMs: options.groupingDelayMs ?? 0,
    maxAttempts: options.maxAttempts ?? 5,
    timeoutMs: options.timeoutMs ?? 2000,
    backoff: { baseMs: 20, capMs: 100 },
    tickMs: 50,
    concurrency: 8,
    perSinkConcurrency: options.perSinkConcurrency ?? 8,
    leaseMs: 10_000,
  });
  await worker.start();
  const ctx = systemContext({ db: a.t.runtime.database.db, clock, random: a.t.runtime.deps.random });
  const until: Harness["until"] = async (check, what) => {
    for (let i = 0; i < 200; i++) {
      const v = await check();
      if (v) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  return {
    ...a,
    worker,
    clock,
    async enqueue(...alerts) {
      await enqueueAlerts(ctx, alerts, () => clock.now());
    },
    async advance(ms) {
      await until(async () => {
        const [row] = await a.t.sql`select count(*)::int as n from notification_deliveries where claimed_until is not null
          and state in ('pending', 'retrying')`;
        return row!.n === 0;
      }, "the deliveries in flight");
      clock.advance(ms);
    },
    until,
    async sink(provider_type, provider_config, route = {}) {
      const res = await a.req("POST", "notifications/sinks", a.admin, {
        name: `${provider_type}-${Math.random()}`,
        provider_type,
        provider_config,
      });
      expect(res.status).toBe(201);
      const sink = await res.json();
      const r = await a.req("POST", "notifications/routes", a.admin, { sink_id: sink.id, ...route });
      expect(r.status).toBe(201);
      return sink;
    },
    async close() {
      await worker.stop();
      await a.t.close();
    },
  };
}
