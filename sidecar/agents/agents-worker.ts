// The agent sockets worker (issue 11 items 4-5): /api/v1/agents/enroll and /api/v1/agents/link on the
// UpgradeRouter, plain `ws` (noServer, no compression, maxPayload just above our own 65535-byte check).
// The rate gates run before the first handshake byte is read. One shared tick scans every session's
// deadlines (handshake, hello, heartbeat, ping, rekey, pairing-code lapse); one write-behind batcher
// commits what the links said; one LISTEN on agent_control reaches the sockets this process holds.
// stop() (the drain): stops accepting, commits everything received, closes every socket 1001, and
// commits the links' ends.
import type { IncomingMessage } from "node:http";
import { WebSocketServer } from "ws";
import { AGENT_CONTROL_CHANNEL } from "../../shared/agents/control.ts";
import { ApiError } from "../../shared/errors.ts";
import { CidrSet, formatIp } from "../../shared/net/cidr.ts";
import { clientAddress, identityOf } from "../../shared/net/client-ip.ts";
import type { RateLimiter } from "../../shared/ratelimit/limiter.ts";
import { applyLinkBatch } from "../../shared/verbs/agents/link/link-batch.ts";
import { expireProbeRuns } from "../../shared/verbs/agents/link/probe-dispatch.ts";
import { sweepRollouts } from "../../shared/verbs/agents/rollouts/sweep.ts";
import { ALERT_RULE_CONTROL_CHANNEL, ruleEngineFor } from "../../shared/verbs/alert-rules/compiled-rules.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import { databaseListener } from "../../runtime/listen.ts";
import type { NodeRuntime } from "../../runtime/node-deps.ts";
import { refuseUpgrade, type UpgradeRouter } from "../../runtime/upgrade-router.ts";
import type { Worker } from "../../runtime/worker.ts";
import { LinkBatcher } from "./batcher.ts";
import { onControl, remintDue, settleEnrollments } from "./control.ts";
import { DiscoveryHandlers } from "./discovery-handlers.ts";
import type { LinkEnv } from "./env.ts";
import { type AgentEndpoint, passGates } from "./gates.ts";
import { newInstanceId } from "./instance-id.ts";
import { handleLinkFrame } from "./link-frames.ts";
import { type AgentLinkOptions, defaultAgentLinkOptions, WS_MAX_PAYLOAD } from "./options.ts";
import { dispatchProbes, sendUpdate } from "./outbound.ts";
import { ServerKeys } from "./server-keys.ts";
import { AgentSession } from "./session.ts";

export const AGENT_PATHS: Record<AgentEndpoint, string> = { enroll: "/api/v1/agents/enroll", link: "/api/v1/agents/link" };

export interface AgentsWorker extends Worker {
  readonly instanceId: string;
  /** Findings go to the discovery issue's handler once it registers one. */
  readonly discovery: DiscoveryHandlers;
  stats(): { links: number; enrolling: number; sockets: number; batch: ReturnType<LinkBatcher<AgentSession>["stats"]> };
}

export interface AgentsWorkerOverrides extends Partial<Omit<AgentLinkOptions, "gates">> {
  gates?: Partial<AgentLinkOptions["gates"]>;
  /** Another limiter than the runtime's (tests: one whose store is down). */
  rateLimiter?: RateLimiter;
}

export function agentsWorker(
  runtime: Pick<NodeRuntime, "deps" | "database">,
  upgrades: UpgradeRouter,
  overrides: AgentsWorkerOverrides = {},
): AgentsWorker {
  const { deps } = runtime;
  const defaults = defaultAgentLinkOptions(overrides.instanceId ?? newInstanceId(), deps.config.AGENT_LINK_GLOBAL_RATE);
  const { rateLimiter = deps.rateLimiter, gates, ...rest } = overrides;
  const options: AgentLinkOptions = { ...defaults, ...rest, gates: { ...defaults.gates, ...gates } };
  const ctx = systemContext({ db: runtime.database.db, clock: deps.clock, random: deps.random });
  const trustedProxies = new CidrSet(deps.config.TRUSTED_PROXIES);
  const env: LinkEnv<AgentSession> = {
    ctx,
    clock: deps.clock,
    logger: deps.logger,
    options,
    keys: new ServerKeys(runtime.database.db, deps.vault),
    batcher: undefined as unknown as LinkBatcher<AgentSession>,
    discovery: new DiscoveryHandlers(deps.logger),
    frames: { handle: handleLinkFrame, sendUpdate, dispatchProbes },
    sessions: new Set(),
    links: new Map(),
    holds: new Map(),
    ackDirty: new Set(),
  };
  env.discovery.attach(env.links);
  env.batcher = new LinkBatcher<AgentSession>(
    {
      commit: (batch) => applyLinkBatch({ ctx, input: batch }),
      committed(marks) {
        const now = performance.now();
        for (const [session, seq] of marks)
          if (session.open && seq > session.ackSeq) {
            session.ackSeq = seq;
            if (session.coversSpooled(seq)) {
              session.ping(now);
              env.ackDirty.delete(session);
            } else env.ackDirty.add(session);
          }
      },
      lost(sessions) {
        for (const s of sessions) s.close(1011, "storage_unavailable");
      },
      logger: deps.logger,
    },
    options,
  );
  const listen = databaseListener(runtime.database);
  let unlisten: (() => Promise<void>) | undefined;
  let unlistenRules: (() => Promise<void>) | undefined;
  let accepting = false;
  const timers: NodeJS.Timeout[] = [];
  let lastPoll = 0;
  let lastExpiry = 0;
  let lastKeys = 0;
  let lastSweep = 0;

  /** Periodic work that needs the database, one at a time. */
  let chores: Promise<void> | undefined;
  const runChores = (now: number): void => {
    if (chores) return;
    const work: Promise<unknown>[] = [];
    if (now - lastPoll >= options.decisionPollMs && env.holds.size > 0) {
      lastPoll = now;
      work.push(settleEnrollments(env, [...env.holds.keys()]));
    }
    work.push(...remintDue(env));
    if (now - lastExpiry >= options.probeExpiryMs) {
      lastExpiry = now;
      work.push(expireProbeRuns({ ctx }));
    }
    if (now - lastKeys >= options.keyRefreshMs) {
      lastKeys = now;
      work.push(env.keys.reload(deps.clock.now()));
    }
    if (now - lastSweep >= options.rolloutSweepMs) {
      lastSweep = now;
      work.push(sweepRollouts({ ctx }));
    }
    if (work.length === 0) return;
    chores = Promise.allSettled(work).then((results) => {
      for (const r of results) if (r.status === "rejected") deps.logger.warn("agent link chore failed", { error: String(r.reason) });
      chores = undefined;
    });
  };

  const tick = (): void => {
    const now = performance.now();
    for (const session of env.sessions) session.tick(now);
    runChores(now);
  };

  const flushAcks = (): void => {
    const now = performance.now();
    for (const session of env.ackDirty) if (session.open) session.ping(now);
    env.ackDirty.clear();
  };

  const clientOf = (req: IncomingMessage): { key: string; ip: string | null } => {
    const forwarded = req.headers["x-forwarded-for"];
    const ip = clientAddress({
      peer: req.socket.remoteAddress,
      forwardedFor: Array.isArray(forwarded) ? forwarded.join(",") : forwarded,
      trustedProxies,
    });
    return ip ? { key: identityOf(ip), ip: formatIp(ip) } : { key: "unknown", ip: null };
  };

  const start = async (): Promise<void> => {
    const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD, perMessageDeflate: false, clientTracking: false });
    for (const endpoint of ["enroll", "link"] as const)
      upgrades.add(AGENT_PATHS[endpoint], (req, socket, head) => {
        if (!accepting || deps.lifecycle.state !== "ready")
          return refuseUpgrade(
            socket,
            new ApiError("SERVER_DRAINING", "This process is not taking agent links; reconnect shortly.", {}, { "Retry-After": "5" }),
          );
        const client = clientOf(req);
        passGates(rateLimiter, options, endpoint, client.key).then(
          (refusal) =>
            wss.handleUpgrade(req, socket, head, (ws) => {
              if (refusal || !accepting) return ws.close(1013, refusal ?? "draining");
              new AgentSession(ws, env, endpoint, client.ip);
            }),
          (e: unknown) => {
            deps.logger.error("agent gate failed", { error: String(e) });
            socket.destroy();
          },
        );
      });
    try {
      await env.keys.reload(deps.clock.now());
    } catch (e) {
      // Handshakes answer 1011 until a reload succeeds (every keyRefreshMs).
      deps.logger.error("agent server keys not loaded", { error: String(e) });
    }
    lastKeys = performance.now();
    if (listen) unlisten = await listen(AGENT_CONTROL_CHANNEL, (payload) => void onControl(env, payload));
    else deps.logger.warn("agent_control cannot be LISTENed on this database: decisions reach enroll sockets by polling only");
    // The alert rules the link batch evaluates are compiled in this process: a change elsewhere drops them.
    if (listen) unlistenRules = await listen(ALERT_RULE_CONTROL_CHANNEL, () => ruleEngineFor(runtime.database.db).invalidate());
    timers.push(setInterval(tick, options.tickMs), setInterval(flushAcks, options.ackFlushMs));
    for (const t of timers) t.unref();
    accepting = true;
  };

  const stop = async (): Promise<void> => {
    accepting = false;
    for (const t of timers.splice(0)) clearInterval(t);
    await env.batcher.flush();
    flushAcks();
    await Promise.all([...env.sessions].map((s) => s.closeAndWait(1001, "going_away", options.closeGraceMs)));
    await env.batcher.flush();
    await chores;
    await unlisten?.().catch((e: unknown) => deps.logger.warn("agent_control unlisten failed", { error: String(e) }));
    await unlistenRules?.().catch((e: unknown) => deps.logger.warn("alert_rule_control unlisten failed", { error: String(e) }));
  };

  return {
    name: "agent-links",
    instanceId: options.instanceId,
    discovery: env.discovery,
    start,
    stop,
    stats: () => ({ links: env.links.size, enrolling: env.holds.size, sockets: env.sessions.size, batch: env.batcher.stats() }),
  };
}
