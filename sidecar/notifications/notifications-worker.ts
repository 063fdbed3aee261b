// The notification delivery worker (issue 12 item 3): LISTEN `notifications` (new alerts, test
// deliveries, replays) plus a steady tick (the grouping delay, retries coming due, leases run out). Each
// round dispatches the alerts past the grouping delay (dispatch-alerts.ts), claims due deliveries under
// a lease and sends them with bounded concurrency, each with its own timeout, and records every attempt.
// Each round also walks the escalations that came due (escalations.ts, adr/0448) and sends the digests of
// quiet hours that ended (digests.ts, adr/0450), both in bounded batches under SKIP LOCKED.
// stop() takes no new work and waits for the sends in flight: the drain loses nothing.
import { databaseListener } from "../../runtime/listen.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import type { OutboundPolicy } from "../../shared/domain/net/outbound-policy.ts";
import type { BackoffPolicy } from "../../shared/domain/notifications/backoff.ts";
import { notifierOf } from "../../shared/domain/notifications/notifiers/index.ts";
import { subscriberWebhookPolicy } from "../../shared/domain/status-pages/subscriber-policy.ts";
import { GroupCommitter } from "../../shared/group-commit.ts";
import type { DeliveryJob } from "../../shared/verbs/notifications/delivery-job.ts";
import { type AttemptRecord, claimDeliveries, type OpenedSecrets, recordAttempts } from "../../shared/verbs/notifications/delivery-work.ts";
import { sendDigests } from "../../shared/verbs/notifications/digests.ts";
import { dispatchAlerts } from "../../shared/verbs/notifications/dispatch-alerts.ts";
import { runEscalations } from "../../shared/verbs/notifications/escalations.ts";
import { NOTIFICATIONS_CHANNEL } from "../../shared/verbs/notifications/enqueue-alert.ts";
import { readOutboundPolicy } from "../../shared/verbs/integrations/outbound-policy.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import type { Worker } from "../../runtime/worker.ts";
import { sendEmail } from "./send-email.ts";
import { type SendOutcome, sendHttp } from "./send-http.ts";

export interface NotificationOptions {
  groupingDelayMs: number;
  maxAttempts: number;
  timeoutMs: number;
  backoff: BackoffPolicy;
  concurrency: number;
  /** Sends to one sink in flight at most (a slow receiver must not take every slot). */
  perSinkConcurrency: number;
  tickMs: number;
  /** How long a claim holds a delivery: past it, another worker may take it (the sender died). */
  leaseMs: number;
}

export function notificationOptions(config: NodeRuntime["deps"]["config"]): NotificationOptions {
  return {
    groupingDelayMs: config.NOTIFICATION_GROUPING_DELAY_S * 1000,
    maxAttempts: config.NOTIFICATION_MAX_ATTEMPTS,
    timeoutMs: config.NOTIFICATION_TIMEOUT_MS,
    backoff: { baseMs: 1000, capMs: 5 * 60_000 },
    concurrency: 64,
    perSinkConcurrency: 8,
    tickMs: 1000,
    leaseMs: config.NOTIFICATION_TIMEOUT_MS * 3 + 30_000,
  };
}

export interface NotificationsWorker extends Worker {
  /** Runs one round now (tests; the LISTEN does the same). */
  kick(): Promise<void>;
}

export function notificationsWorker(
  runtime: Pick<NodeRuntime, "deps" | "database">,
  overrides: Partial<NotificationOptions> = {},
): NotificationsWorker {
  const { deps, database } = runtime;
  const options = { ...notificationOptions(deps.config), ...overrides };
  const ctx = systemContext({ db: database.db, clock: deps.clock, random: deps.random });
  const logger = deps.logger;
  const inFlight = new Set<Promise<void>>();
  // Each attempt is committed before its slot frees; attempts that end together share a transaction.
  const attempts = new GroupCommitter<AttemptRecord, { state: string }>((records) => recordAttempts({ ctx, input: records }), {
    maxBatch: 200,
  });
  const recordAttempt = ({ input }: { input: AttemptRecord }) => attempts.submit(input);
  /** Sends in flight per sink id (the claim leaves a sink at its limit out). */
  const busy = new Map<number, number>();
  /** Deliveries sent by this worker whose attempts are not committed yet. */
  const pending = new Set<number>();
  /** Sink secrets opened by earlier claims (delivery-work.ts). */
  const opened: OpenedSecrets = new Map();
  let stopped = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let round: Promise<void> | null = null;
  let again = false;

  /** Sends one delivery and records its attempt; `answered` is called once the receiver is done with it. */
  async function send(job: DeliveryJob, policy: OutboundPolicy, answered: () => void): Promise<void> {
    const started = deps.clock.now();
    const t0 = performance.now();
    let outcome: SendOutcome;
    try {
      const provider = notifierOf(job.sink.provider_type);
      const nowSecs = Math.floor(started.getTime() / 1000);
      outcome =
        provider.transport === "smtp"
          ? await sendEmail(provider, job, options.timeoutMs, nowSecs, policy)
          : await sendHttp(provider, job, options.timeoutMs, nowSecs, {
              outbound: deps.outbound,
              policy: job.publicSubscriber ? subscriberWebhookPolicy(policy) : policy,
            });
    } catch (e) {
      outcome = { outcome: "failed", http_status: null, error: `Send failed: ${(e as Error).name}` };
    }
    answered();
    await recordAttempt({
      input: {
        delivery_id: job.delivery_id,
        ...outcome,
        duration_ms: performance.now() - t0,
        started_at: started,
        backoff: options.backoff,
      },
    });
    if (outcome.outcome !== "delivered")
      logger.warn("notification delivery failed", {
        delivery_id: job.delivery_id,
        sink_id: job.sink.id,
        attempt: job.attempt,
        error: outcome.error,
      });
  }

  async function paging(what: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (e) {
      logger.error(`notification ${what} round failed`, { error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Claims what the free slots allow and starts sending it (without waiting for the sends). */
  async function claimAndSend(): Promise<void> {
    const room = options.concurrency - inFlight.size;
    if (stopped || room <= 0) return;
    // The messages' console and acknowledge links (docs/adr/0447-acknowledgement.md), signed with the session key.
    const links = { publicUrl: deps.config.PUBLIC_URL, signingKey: await deps.identity.signingKey(database.db) };
    const { jobs, failed } = await claimDeliveries({
      ctx,
      input: {
        limit: room,
        leaseMs: options.leaseMs,
        vault: deps.vault,
        perSink: options.perSinkConcurrency,
        busy,
        pending,
        links,
        opened,
      },
    });
    for (const f of failed)
      await recordAttempt({
        input: {
          delivery_id: f.id,
          outcome: "failed",
          http_status: null,
          error: f.error,
          duration_ms: 0,
          started_at: deps.clock.now(),
          backoff: options.backoff,
          permanent: true,
        },
      });
    // The policy as it is now, read once for the claim's sends (each send checks its address against it).
    const policy = jobs.length > 0 ? await readOutboundPolicy(database.db) : null;
    for (const job of jobs) {
      const sink = job.sink.id;
      busy.set(sink, (busy.get(sink) ?? 0) + 1);
      pending.add(job.delivery_id);
      // The sink's slot frees once its receiver answered (the limit spares the receiver); the worker's own
      // slot once the attempt is committed (the delivery stays claimed until then, so it is not sent twice).
      let answered = false;
      const release = () => {
        if (answered) return;
        answered = true;
        const left = (busy.get(sink) ?? 1) - 1;
        if (left > 0) busy.set(sink, left);
        else busy.delete(sink);
        // A freed slot is filled at once, without waiting for a whole round (routing a burst takes a while).
        if (!stopped) void refill();
      };
      const p = send(job, policy!, release)
        .catch((e: unknown) =>
          logger.error("notification attempt could not be recorded", { delivery_id: job.delivery_id, error: String(e) }),
        )
        .finally(() => {
          inFlight.delete(p);
          pending.delete(job.delivery_id);
          release();
          if (!stopped) void refill();
        });
      inFlight.add(p);
    }
  }

  async function runRound(): Promise<void> {
    // Sending starts after each dispatched batch, not after the whole backlog: the first alerts of a
    // burst reach their receivers while the rest are still being routed.
    for (let i = 0; i < 10 && !stopped; i++) {
      const r = await dispatchAlerts({ ctx, input: { groupingDelayMs: options.groupingDelayMs, maxAttempts: options.maxAttempts } });
      // Not awaited: while a burst is being sent, the claims run on as slots free (refill loops), and
      // the next batch must not wait for them.
      void refill();
      if (r.dispatched + r.suppressed + r.debounced + r.unrouted + r.in_hand < 200) break;
    }
    // Escalation steps and digests due (adr/0448, adr/0450); a failure here is logged and must not hold up
    // the deliveries.
    await paging("escalation", async () => {
      for (let i = 0; i < 10 && !stopped; i++) {
        const r = await runEscalations({ ctx, input: { maxAttempts: options.maxAttempts, batch: 100 } });
        if (r.handled < 100) break;
      }
    });
    await paging("digest", async () => {
      for (let i = 0; i < 10 && !stopped; i++) {
        const r = await sendDigests({ ctx, input: { maxAttempts: options.maxAttempts, batch: 20 } });
        if (r.digests < 20) break;
      }
    });
    void refill();
  }

  /** One claim at a time (each counts the slots in flight); a refill asked for during one runs after it. */
  let claiming: Promise<void> | null = null;
  let claimAgain = false;
  function refill(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (claiming) {
      claimAgain = true;
      return claiming;
    }
    claiming = (async () => {
      try {
        do {
          claimAgain = false;
          await claimAndSend();
        } while (claimAgain && !stopped);
      } catch (e) {
        logger.error("notification claim failed", { error: e instanceof Error ? e.message : String(e) });
      } finally {
        claiming = null;
      }
    })();
    return claiming;
  }

  /** One round at a time; a kick during a round asks for one more after it. */
  function kick(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (round) {
      again = true;
      return round;
    }
    round = (async () => {
      try {
        do {
          again = false;
          await runRound();
        } while (again && !stopped);
      } catch (e) {
        logger.error("notification round failed", { error: e instanceof Error ? e.message : String(e) });
      } finally {
        round = null;
      }
    })();
    return round;
  }

  return {
    name: "notifications",
    kick,
    async start() {
      timer = setInterval(() => void kick(), options.tickMs);
      timer.unref?.();
      const listen = databaseListener(database);
      if (listen) {
        try {
          unlisten = await listen(NOTIFICATIONS_CHANNEL, () => void kick());
        } catch (e) {
          logger.error("could not LISTEN on notifications; deliveries still run on the tick", {
            error: e instanceof Error ? e.message : String(e),
          });
        }
      }
      void kick();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await unlisten?.().catch(() => {});
      await round?.catch(() => {});
      await claiming?.catch(() => {});
      await Promise.allSettled([...inFlight]);
    },
  };
}
