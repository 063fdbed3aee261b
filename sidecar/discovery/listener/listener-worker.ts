// The passive listener worker (issue 28; docs/discovery-listener.md): off by default. Every pollMs it reads
// the discovery_listener_enabled and discovery_listener_interfaces settings and opens, reopens (the
// interfaces changed) or closes the listener of net/listener/ accordingly. What the listener hears is held
// (at most LISTENER_LIMITS.maxPending observations; more are dropped and counted) and written every
// flushMs by one verb call (events, status, discovery results, new-device alerts); the status alone is
// written every heartbeatMs so GET /discovery/listener/status shows a live sidecar. The description fetch
// goes through deps.outbound under the outbound_policy setting, only to the discovery's allowed targets.
// Nothing here may take the process down: every round catches, logs and goes on.
import { LISTENER_LIMITS, type ListenerObservation } from "../../../shared/domain/discovery/listener.ts";
import { allowedTargetsFromEnv, parseTargets } from "../../../shared/domain/discovery/targets.ts";
import { readOutboundPolicy } from "../../../shared/verbs/integrations/outbound-policy.ts";
import { readListenerSettings } from "../../../shared/verbs/discovery/listener/read-listener.ts";
import { recordHeard } from "../../../shared/verbs/discovery/listener/record-heard.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { descriptionFetcher } from "../../../net/listener/description-fetch.ts";
import { type PassiveListener, type PassiveListenerOptions, passiveListener } from "../../../net/listener/passive-listener.ts";
import type { NodeRuntime } from "../../../runtime/node-deps.ts";
import type { Worker } from "../../../runtime/worker.ts";

export interface ListenerWorkerOptions {
  owner: string;
  pollMs: number;
  flushMs: number;
  heartbeatMs: number;
  /** Makes the listener (tests hand in one that runs in a network namespace). */
  open: (opts: PassiveListenerOptions) => PassiveListener;
}

export interface ListenerWorker extends Worker {
  /** Reads the settings and opens or closes the listener now (tests). */
  reconcile(): Promise<void>;
  /** Writes what is held now (tests). */
  flush(): Promise<void>;
}

export function listenerWorker(
  runtime: Pick<NodeRuntime, "deps" | "database">,
  overrides: Partial<ListenerWorkerOptions> = {},
): ListenerWorker {
  const { deps, database } = runtime;
  const options: ListenerWorkerOptions = {
    owner: `sidecar-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    pollMs: 5000,
    flushMs: 2000,
    heartbeatMs: 30_000,
    open: passiveListener,
    ...overrides,
  };
  const ctx = systemContext({ db: database.db, clock: deps.clock, random: deps.random });
  const allowed = parseTargets({
    targets: allowedTargetsFromEnv({ SVC_DISCOVERY_ALLOWED_TARGETS: deps.config.SVC_DISCOVERY_ALLOWED_TARGETS }),
    cap: Number.MAX_SAFE_INTEGER,
  });
  const fetchDescription = descriptionFetcher({
    outbound: deps.outbound,
    policy: () => readOutboundPolicy(database.db),
    allowed: (ip) => allowed.ok && allowed.value.contains(ip),
  });
  let current: { listener: PassiveListener; key: string } | undefined;
  let pending: ListenerObservation[] = [];
  let dropped = 0;
  let lastWrite = 0;
  let running = false;
  let busy: Promise<void> = Promise.resolve();
  const timers: NodeJS.Timeout[] = [];

  const serial = (work: () => Promise<void>): Promise<void> => {
    busy = busy.then(work).catch((e: unknown) => deps.logger.error("discovery listener round failed", { error: String(e) }));
    return busy;
  };

  /** Stops the listener and writes what it held with its last status (sockets closed), so the status route stops counting it at once. */
  const close = async () => {
    const was = current;
    current = undefined;
    if (!was) return;
    await was.listener.stop();
    const observations = pending;
    pending = [];
    await recordHeard({ ctx, input: { owner: options.owner, observations, status: was.listener.status() } });
  };

  const reconcile = () =>
    serial(async () => {
      const settings = await readListenerSettings({ ctx, input: undefined });
      const key = settings.enabled && running ? JSON.stringify([...settings.interfaces].sort()) : "";
      if (current?.key === key) return;
      await close();
      if (!key || settings.interfaces.length === 0) return;
      const listener = options.open({
        interfaces: settings.interfaces,
        fetchDescription,
        onObservation: (o) => {
          if (pending.length < LISTENER_LIMITS.maxPending) pending.push(o);
          else dropped++;
        },
      });
      current = { listener, key };
      await listener.start();
      deps.logger.info("discovery listener started", { interfaces: settings.interfaces, groups: listener.status().groups });
    });

  const flush = () =>
    serial(async () => {
      const listener = current?.listener;
      if (!listener) return;
      const due = Date.now() - lastWrite >= options.heartbeatMs;
      if (pending.length === 0 && !due) return;
      const observations = pending;
      pending = [];
      const status = listener.status();
      if (dropped > 0)
        status.errors.unshift({
          at: new Date().toISOString(),
          message: `${dropped} observations dropped: more than ${LISTENER_LIMITS.maxPending} between two writes`,
        });
      dropped = 0;
      await recordHeard({ ctx, input: { owner: options.owner, observations, status } });
      lastWrite = Date.now();
    });

  return {
    name: "discovery-listener",
    reconcile,
    flush,
    async start() {
      running = true;
      await reconcile();
      timers.push(
        setInterval(() => void reconcile(), options.pollMs),
        setInterval(() => void flush(), options.flushMs),
      );
    },
    async stop() {
      running = false;
      for (const t of timers.splice(0)) clearInterval(t);
      await serial(close);
    },
  };
}
