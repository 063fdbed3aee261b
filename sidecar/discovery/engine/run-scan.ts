// One scan, start to end: a sweep (built-in, or nmap when chosen and installed) finds the live hosts
// among the plan's addresses with max_concurrent_hosts in flight and max_sockets sockets at most; each
// live host is enriched (dns, banner/tls, http, arp) and handed to onHost as soon as it is done. With
// arp, hosts only the neighbour table knows are reported after the sweep. Aborting the signal stops
// every connect, ping and nmap at once; runScan resolves within a second with cancelled: true.
import type { HostFinding } from "../../../shared/domain/discovery/finding.ts";
import type { SocketBudget } from "../../../net/socket-budget.ts";
import { emptyFinding } from "../../../shared/domain/discovery/finding.ts";
import { engineContext, type EngineContext, hostClock, type LogFn } from "./context.ts";
import { eachConcurrent } from "../../../shared/each-concurrent.ts";
import { enrichHost } from "./enrich-host.ts";
import { nmapSweep } from "./nmap-sweep.ts";
import { type EngineOptions, has, type ScanPlan } from "./plan.ts";
import { probeHost } from "./probe-host.ts";

export interface ScanProgress {
  done: number;
  total: number;
  phase: string;
  message: string;
}

export interface ScanHooks {
  signal: AbortSignal;
  onHost(f: HostFinding): void | Promise<void>;
  onProgress(p: ScanProgress): void;
  onLog: LogFn;
}

export interface ScanOutcome {
  addresses_scanned: number;
  hosts_found: number;
  cancelled: boolean;
}

/** How long a cancelled scan waits for its operations to unwind (they stop on the abort at once). */
const CANCEL_GRACE_MS = 600;

const LIVENESS = ["icmp", "tcp", "snmp", "nmap", "arp"];

/** The methods of the built-in sweep (arp alone reads the neighbour table, no probe). */
const SWEEP = ["icmp", "tcp", "snmp"];

function withTypes(plan: ScanPlan, types: string[]): ScanPlan {
  return { ...plan, scan_types: [...new Set([...plan.scan_types, ...types])] };
}

/** The plan with icmp and tcp added when it names no way of telling a host is up (e.g. only dns or http). */
function withLiveness(plan: ScanPlan, log: LogFn): ScanPlan {
  if (plan.scan_types.some((t) => LIVENESS.includes(t))) return plan;
  log("INFO", "plan", "No host-discovery method chosen; ICMP and TCP connect find the hosts");
  return withTypes(plan, ["icmp", "tcp"]);
}

export async function runScan(
  plan: ScanPlan,
  hooks: ScanHooks,
  options: EngineOptions & { budget?: SocketBudget } = {},
): Promise<ScanOutcome> {
  const control = new AbortController();
  const onAbort = () => control.abort(hooks.signal.reason);
  if (hooks.signal.aborted) return { addresses_scanned: 0, hosts_found: 0, cancelled: true };
  hooks.signal.addEventListener("abort", onAbort, { once: true });
  const ctx = engineContext(withLiveness(plan, hooks.onLog), control.signal, options, hooks.onLog);
  const total = plan.targets.count;
  const state = { done: 0, found: 0, reported: new Set<string>() };

  const progress = (phase: string) =>
    hooks.onProgress({ done: state.done, total, phase, message: `${state.done} of ${total} addresses, ${state.found} hosts found` });

  const report = async (f: HostFinding) => {
    if (control.signal.aborted) return;
    state.reported.add(f.ip_address);
    state.found++;
    await hooks.onHost(f);
  };

  const work = (async () => {
    hooks.onLog(
      "INFO",
      "sweep",
      `Sweeping ${total} addresses (${ctx.plan.scan_types.join(", ")}), ${plan.max_concurrent_hosts} hosts and ${plan.max_sockets} sockets at most`,
    );
    const fromNmap = has(ctx.plan, "nmap")
      ? await nmapSweep(ctx, (pct) => ((state.done = Math.floor((pct / 100) * total)), progress("nmap")))
      : null;
    if (fromNmap) {
      state.done = total;
      progress("enrich");
      await eachConcurrent(fromNmap, plan.max_concurrent_hosts, control.signal, async (f) => {
        const clock = hostClock(control.signal, plan.host_timeout_ms);
        await enrichHost(ctx, f, clock, performance.now());
        await report(f);
      });
    } else {
      // nmap could not run: the built-in sweep stands in for it.
      if (has(ctx.plan, "nmap")) ctx.plan = withTypes(ctx.plan, ["icmp", "tcp"]);
      if (SWEEP.some((t) => has(ctx.plan, t))) await sweep(ctx, state, report, progress);
    }
    if (control.signal.aborted) return;
    if (has(ctx.plan, "arp")) await arpOnlyHosts(ctx, state.reported, report);
    state.done = total;
    progress("done");
  })();

  // Cancellation must not wait for the work: once aborted, every operation unwinds on its own listener.
  const cancelled = new Promise<"cancelled">((resolve) =>
    control.signal.addEventListener("abort", () => resolve("cancelled"), { once: true }),
  );
  try {
    const first = await Promise.race([work.then(() => "done" as const), cancelled]);
    if (first === "cancelled") {
      await Promise.race([work.catch(() => {}), new Promise((r) => setTimeout(r, CANCEL_GRACE_MS))]);
    }
  } catch (e) {
    control.abort(e);
    throw e;
  } finally {
    hooks.signal.removeEventListener("abort", onAbort);
  }
  return { addresses_scanned: state.done, hosts_found: state.found, cancelled: hooks.signal.aborted };
}

async function sweep(
  ctx: EngineContext,
  state: { done: number },
  report: (f: HostFinding) => Promise<void>,
  progress: (phase: string) => void,
): Promise<void> {
  const { plan } = ctx;
  await eachConcurrent(plan.targets.addresses(), plan.max_concurrent_hosts, ctx.signal, async (ip) => {
    const probed = await probeHost(ctx, ip, hostClock(ctx.signal, plan.host_timeout_ms));
    if (probed && !ctx.signal.aborted) {
      await enrichHost(ctx, probed.finding, probed.clock, performance.now());
      await report(probed.finding);
    }
    // A host the cancel cut short was not scanned.
    if (ctx.signal.aborted) return;
    state.done++;
    progress("sweep");
  });
}

/** Addresses of the targets the neighbour table knows that no probe saw (a host dropping everything still answers ARP). */
async function arpOnlyHosts(ctx: EngineContext, reported: Set<string>, report: (f: HostFinding) => Promise<void>): Promise<void> {
  const table = await ctx.neighbours.after(performance.now());
  for (const [ip, mac] of table) {
    if (reported.has(ip) || !ctx.plan.targets.contains(ip) || ctx.signal.aborted) continue;
    const f = emptyFinding(ip);
    f.mac_address = mac;
    f.sources = ["arp"];
    const clock = hostClock(ctx.signal, ctx.plan.host_timeout_ms);
    await enrichHost(ctx, f, clock, 0);
    await report(f);
  }
}
