// The SNMP poller of the sidecar: every enabled SNMP telemetry configuration is polled every interval_s
// (a jittered timer per node), configurations are reloaded every minute and when a "telemetry" NOTIFY
// says {action: "config"}, and {action: "poll"} polls a node at once. Nothing here may take the
// sidecar down: every failure is caught and logged with the hardware id (never the community).
import { cryptoRandom, type Clock } from "../../shared/clock.ts";
import type { Db } from "../../shared/db/database.ts";
import type { Logger } from "../../shared/logger.ts";
import { systemContext, type VerbContext } from "../../shared/verbs/verb-context.ts";
import {
  type ClaimedPoll,
  claimPoll,
  listPollSchedules,
  openPollTarget,
  type PollReading,
  type PollTarget,
  recordPoll,
} from "../../shared/verbs/telemetry/poll-targets.ts";
import type { Vault } from "../../shared/vault/vault.ts";
import type { Listen } from "../../runtime/listen.ts";
import type { Worker } from "../../runtime/worker.ts";
import type { CpuCounters } from "./snmp-metrics.ts";
import { readSnmp } from "./snmp-read.ts";

export const RELOAD_MS = 60_000;
/** A requested poll this soon after the last one is folded into it (several sidecars hear one NOTIFY). */
export const REQUEST_GAP_MS = 2000;

export interface PollerDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Opens the SNMP communities, which are stored sealed. */
  vault: Vault;
  /** LISTEN on a channel; absent, only the minute reload picks up changes. */
  listen?: Listen | undefined;
  /** 0..1, for spreading the polls (tests pin it). */
  jitter?: () => number;
  reloadMs?: number;
}

export type PollOutcome = "polled" | "skipped" | "failed";

export interface SnmpPoller extends Worker {
  start(): Promise<void>;
  /** Polls one node now unless it was polled within `minGapMs` (the poller's own code path). */
  pollNow(hardwareId: number, minGapMs?: number): Promise<PollOutcome>;
  reload(): Promise<void>;
}

interface Slot {
  interval_s: number;
  timer?: ReturnType<typeof setTimeout>;
}

export function createSnmpPoller(deps: PollerDeps): SnmpPoller {
  const { logger } = deps;
  const jitter = deps.jitter ?? Math.random;
  // Polls are the system's own work: verbs run as the system actor.
  const ctx: VerbContext = systemContext({ db: deps.db, clock: deps.clock, random: cryptoRandom });
  const slots = new Map<number, Slot>();
  const inFlight = new Map<number, Promise<PollOutcome>>();
  const counters = new Map<number, CpuCounters>();
  let stopped = false;
  let reloadTimer: ReturnType<typeof setInterval> | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  /** Opens the community; a failure is the poll's outcome (last_error, status down), seen on the node. */
  async function openTarget(claimed: ClaimedPoll): Promise<PollTarget | string> {
    try {
      return await openPollTarget(deps.vault, claimed);
    } catch {
      logger.error("snmp poll skipped: the community does not open with this process's vault key", { hardware_id: claimed.hardware_id });
      return "the SNMP community could not be decrypted with this process's vault key";
    }
  }

  async function poll(hardwareId: number, minGapMs: number): Promise<PollOutcome> {
    try {
      const claimed = await claimPoll({ ctx, input: { hardwareId, minGapMs } });
      if (!claimed) return "skipped";
      const target = await openTarget(claimed);
      let reading: PollReading | null = null;
      let error: string | null = typeof target === "string" ? target : null;
      if (typeof target !== "string") {
        try {
          const read = await readSnmp(target, counters.get(hardwareId));
          reading = read.reading;
          if (read.counters) counters.set(hardwareId, read.counters);
        } catch (e) {
          error = e instanceof Error ? e.message : String(e);
          logger.warn("snmp poll failed", { hardware_id: hardwareId, host: target.host, port: target.port, error });
        }
      }
      await recordPoll({ ctx, input: { hardwareId, reading, error } });
      return "polled";
    } catch (e) {
      logger.error("telemetry poll could not be recorded", { hardware_id: hardwareId, error: e instanceof Error ? e.message : String(e) });
      return "failed";
    }
  }

  function pollNow(hardwareId: number, minGapMs = REQUEST_GAP_MS): Promise<PollOutcome> {
    const running = inFlight.get(hardwareId);
    if (running) return running;
    const p = poll(hardwareId, minGapMs).finally(() => inFlight.delete(hardwareId));
    inFlight.set(hardwareId, p);
    return p;
  }

  function schedule(hardwareId: number, slot: Slot, delayMs: number): void {
    slot.timer = setTimeout(() => {
      // Half an interval of slack: another sidecar that polled this slot already makes this one a no-op.
      void pollNow(hardwareId, (slot.interval_s * 1000) / 2).then(() => {
        if (!stopped && slots.get(hardwareId) === slot) schedule(hardwareId, slot, slot.interval_s * 1000 * (0.9 + 0.2 * jitter()));
      });
    }, delayMs);
    slot.timer.unref?.();
  }

  async function reload(): Promise<void> {
    try {
      const wanted = new Map((await listPollSchedules(deps.db)).map((r) => [r.hardware_id, r.interval_s]));
      if (stopped) return;
      for (const [id, slot] of slots) {
        if (wanted.get(id) === slot.interval_s) continue;
        clearTimeout(slot.timer);
        slots.delete(id);
        counters.delete(id);
      }
      for (const [id, interval_s] of wanted) {
        if (slots.has(id)) continue;
        const slot: Slot = { interval_s };
        slots.set(id, slot);
        schedule(id, slot, interval_s * 1000 * jitter());
      }
    } catch (e) {
      logger.error("telemetry poll schedules could not be loaded", { error: e instanceof Error ? e.message : String(e) });
    }
  }

  function onNotify(payload: string): void {
    try {
      const msg = JSON.parse(payload) as { hardware_id?: unknown; action?: unknown };
      if (msg.action === "config") void reload();
      else if (msg.action === "poll" && typeof msg.hardware_id === "number") void pollNow(msg.hardware_id);
    } catch (e) {
      logger.warn("ignored a telemetry notification", { error: e instanceof Error ? e.message : String(e) });
    }
  }

  return {
    name: "telemetry-snmp-poller",
    pollNow,
    reload,
    async start() {
      await reload();
      reloadTimer = setInterval(() => void reload(), deps.reloadMs ?? RELOAD_MS);
      reloadTimer.unref?.();
      if (deps.listen) {
        try {
          unlisten = await deps.listen("telemetry", onNotify);
        } catch (e) {
          logger.error("could not LISTEN on telemetry; polls still run on schedule", { error: e instanceof Error ? e.message : String(e) });
        }
      }
    },
    async stop() {
      stopped = true;
      clearInterval(reloadTimer);
      for (const slot of slots.values()) clearTimeout(slot.timer);
      slots.clear();
      await unlisten?.().catch(() => {});
      await Promise.allSettled(inFlight.values());
    },
  };
}
