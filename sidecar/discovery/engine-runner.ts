// The runner of every scan type the engine does (icmp, tcp, dns, arp, banner, http, nmap, snmp): the job
// row becomes A's ScanPlan (targets re-checked against the allowed set, the SNMP community opened with
// the vault), runScan does the work, and its findings go to the results in batches (every findingsMs or
// findingsBatch hosts, whichever first), so a /22 costs a few dozen transactions, not a thousand.
import { DEFAULT_PORT_PRESET, PORT_PRESETS } from "../../shared/domain/discovery/ports.ts";
import type { HostFinding } from "../../shared/domain/discovery/finding.ts";
import { allowedTargetsFromEnv, MAX_SCAN_ADDRESSES, parseTargets } from "../../shared/domain/discovery/targets.ts";
import { SocketBudget } from "../../net/socket-budget.ts";
import type { Db } from "../../shared/db/database.ts";
import { openJobCommunity } from "../../shared/verbs/discovery/jobs/snmp-community.ts";
import { jobTargets } from "../../shared/verbs/discovery/run/job-targets.ts";
import type { ScanPlan } from "./engine/plan.ts";
import { runScan } from "./engine/run-scan.ts";
import type { JobRun, JobRunner } from "./job-runner.ts";
import type { DiscoveryWorkerOptions } from "./options.ts";

const num = (v: unknown, fallback: number, min: number, max: number) =>
  typeof v === "number" && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.trunc(v))) : fallback;

export class PlanError extends Error {
  override name = "PlanError";
}

export async function planOf(
  db: Db,
  run: JobRun,
  options: Pick<DiscoveryWorkerOptions, "maxSockets" | "hostTimeoutMs" | "maxConcurrentHosts">,
): Promise<ScanPlan> {
  const { job } = run;
  const parsed = parseTargets({
    targets: jobTargets(job),
    exclude: job.exclude,
    allowed: allowedTargetsFromEnv(process.env),
    cap: MAX_SCAN_ADDRESSES,
  });
  if (!parsed.ok) throw new PlanError(`${parsed.field}: ${parsed.message}`);
  const o = job.options;
  const snmp = job.scan_types.includes("snmp")
    ? {
        community: (await openJobCommunity(db, run.vault, job)) ?? "public",
        port: num(o.snmp_port, 161, 1, 65535),
        version: typeof o.snmp_version === "string" ? o.snmp_version : "2c",
      }
    : null;
  return {
    targets: parsed.value,
    scan_types: job.scan_types,
    tcp_ports: job.tcp_ports.length > 0 ? job.tcp_ports : [...PORT_PRESETS[DEFAULT_PORT_PRESET]],
    host_timeout_ms: num(o.host_timeout_ms, options.hostTimeoutMs, 100, 30_000),
    max_sockets: options.maxSockets,
    max_concurrent_hosts: num(o.max_concurrent_hosts, options.maxConcurrentHosts, 1, 1024),
    nmap_arguments: typeof o.nmap_arguments === "string" ? o.nmap_arguments : null,
    snmp,
  };
}

export function engineRunner(
  db: Db,
  options: Pick<DiscoveryWorkerOptions, "maxSockets" | "hostTimeoutMs" | "maxConcurrentHosts" | "findingsMs" | "findingsBatch">,
): JobRunner {
  // One budget for every job this runner runs: the sidecar never holds more than maxSockets scan sockets.
  const budget = new SocketBudget(options.maxSockets);
  return async (run) => {
    const plan = await planOf(db, run, options);
    run.log("INFO", "plan", `Scanning ${plan.targets.count} addresses: ${plan.scan_types.join(", ")}`, {
      targets: plan.targets.targets,
      tcp_ports: plan.tcp_ports.length,
    });
    run.progress({ done: 0, total: plan.targets.count, phase: "scanning", message: `0 of ${plan.targets.count} addresses` });
    const batcher = findingsBatcher(run, options);
    let outcome: Awaited<ReturnType<typeof runScan>>;
    try {
      outcome = await runScan(
        plan,
        {
          signal: run.signal,
          onHost: (f) => batcher.add(f),
          onProgress: (p) => run.progress(p),
          onLog: (level, phase, message, details) => run.log(level, phase, message, details),
        },
        { budget },
      );
    } finally {
      await batcher.close();
    }
    if (!outcome.cancelled)
      run.log("INFO", "done", `Scanned ${outcome.addresses_scanned} addresses; ${outcome.hosts_found} hosts answered`);
  };
}

/** Collects findings and records them every `findingsMs` or `findingsBatch`; one write at a time. */
function findingsBatcher(run: JobRun, options: Pick<DiscoveryWorkerOptions, "findingsMs" | "findingsBatch">) {
  let pending: HostFinding[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return writing;
    const batch = pending;
    pending = [];
    writing = writing.then(() => run.recordHosts(batch));
    return writing;
  };
  return {
    add(f: HostFinding): Promise<void> | void {
      pending.push(f);
      // Back-pressure: a full batch makes the engine wait for its write, so memory stays bounded.
      if (pending.length >= options.findingsBatch) return flush();
      timer ??= setTimeout(() => void flush().catch(() => {}), options.findingsMs);
    },
    close: () => flush(),
  };
}
