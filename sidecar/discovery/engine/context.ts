// What every stage of one scan shares: the plan, the socket budget (one for all hosts), the ping budget and
// batcher, the ports-phase gate, the neighbour table reader and the log. `slot` runs one operation holding a socket.
import { NeighbourTable } from "../../../net/neighbours.ts";
import { PingBatcher } from "../../../net/ping-batch.ts";
import { SocketBudget } from "../../../net/socket-budget.ts";
import { DEFAULT_BANNER_WINDOW_MS, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_MAX_PINGS, type EngineOptions, type ScanPlan } from "./plan.ts";

/** One echo's wait for its reply (ping -W counts whole seconds). */
export const PING_TIMEOUT_MS = 1000;

export type LogLevel = "DEBUG" | "INFO" | "WARNING" | "ERROR";
export type LogFn = (level: LogLevel, phase: string, message: string, details?: Record<string, unknown>) => void;

export interface EngineContext {
  plan: ScanPlan;
  signal: AbortSignal;
  sockets: SocketBudget;
  pings: SocketBudget;
  /** Hosts in the ports phase at once (probe-host.ts). */
  portGate: SocketBudget;
  pinger: PingBatcher;
  neighbours: NeighbourTable;
  connectTimeoutMs: number;
  bannerWindowMs: number;
  dnsServers: string[] | undefined;
  nmapCommand: string;
  log: LogFn;
  /** Logs a warning once per key (ping not permitted, ...), not once per host. */
  warnOnce(key: string, phase: string, message: string): void;
}

/** How many hosts may be in the ports phase at once: their ports fill three quarters of the budget (pings and discovery keep the rest). */
export function portPhaseHosts(maxSockets: number, portsPerHost: number): number {
  return Math.max(1, Math.floor((maxSockets * 3) / 4 / Math.max(1, portsPerHost)));
}

export function engineContext(
  plan: ScanPlan,
  signal: AbortSignal,
  options: EngineOptions & { budget?: SocketBudget },
  log: LogFn,
): EngineContext {
  const warned = new Set<string>();
  return {
    plan,
    signal,
    sockets: options.budget ?? new SocketBudget(Math.max(1, plan.max_sockets)),
    pings: new SocketBudget(Math.max(1, Math.min(options.maxPings ?? DEFAULT_MAX_PINGS, plan.max_sockets))),
    portGate: new SocketBudget(portPhaseHosts(plan.max_sockets, plan.tcp_ports.length)),
    pinger: new PingBatcher({ timeoutMs: PING_TIMEOUT_MS, signal, command: options.pingCommand }),
    neighbours: new NeighbourTable(options.arpTablePath),
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    bannerWindowMs: options.bannerWindowMs ?? DEFAULT_BANNER_WINDOW_MS,
    dnsServers: options.dnsServers,
    nmapCommand: options.nmapCommand ?? "nmap",
    log,
    warnOnce(key, phase, message) {
      if (warned.has(key)) return;
      warned.add(key);
      log("WARNING", phase, message);
    },
  };
}

/** Runs `op` holding one socket of the budget; `fallback` when the signal aborted before a socket was free. */
export async function slot<T>(ctx: EngineContext, signal: AbortSignal, fallback: T, op: () => Promise<T>): Promise<T> {
  let release: () => void;
  try {
    release = await ctx.sockets.acquire(signal);
  } catch {
    return fallback;
  }
  try {
    return await op();
  } finally {
    release();
  }
}

/** A host's deadline as a signal (scan abort or host timeout) and its remaining time. */
export interface HostClock {
  signal: AbortSignal;
  remaining(): number;
  /** min(cap, remaining), at least 1 ms. */
  budget(cap: number): number;
}

export function hostClock(scan: AbortSignal, timeoutMs: number): HostClock {
  const end = performance.now() + timeoutMs;
  const remaining = () => Math.max(0, end - performance.now());
  return {
    signal: AbortSignal.any([scan, AbortSignal.timeout(Math.max(1, timeoutMs))]),
    remaining,
    budget: (cap) => Math.max(1, Math.ceil(Math.min(cap, remaining()))),
  };
}
