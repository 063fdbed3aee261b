// The nmap scan type: nmap sweeps the job's addresses instead of the built-in sweep (connect scan by
// default, the job's ports unless its checked arguments pick them), and its hosts go on to the same
// enrichment. nmap missing or failing is logged and answered with false: the caller sweeps itself.
import { parseNmapArguments } from "../../../shared/domain/discovery/nmap-arguments.ts";
import type { HostFinding } from "../../../shared/domain/discovery/finding.ts";
import { NmapError, runNmap } from "../../../net/nmap.ts";
import type { EngineContext } from "./context.ts";

export class NmapArgumentsError extends Error {
  override name = "NmapArgumentsError";
}

const MIN_RUN_MS = 120_000;
const MAX_RUN_MS = 6 * 3600_000;

/** The full argument list: the job's checked flags, -sT -T4 when it gives no scan technique or timing. */
export function nmapFlags(ctx: Pick<EngineContext, "plan">): { args: string[]; selectsPorts: boolean } {
  const { plan } = ctx;
  const parsed = parseNmapArguments(plan.nmap_arguments);
  if (!parsed.ok) throw new NmapArgumentsError(`nmap_arguments: ${parsed.message}`);
  const args = [...parsed.value];
  if (!args.some((a) => /^-s[TSn]$/.test(a))) args.unshift("-sT");
  if (!args.some((a) => /^-T\d$/.test(a))) args.push("-T4");
  if (!args.includes("--host-timeout")) args.push("--host-timeout", `${plan.host_timeout_ms}ms`);
  // nmap's own parallelism, held to the job's socket cap.
  if (!args.includes("--max-parallelism")) args.push("--max-parallelism", String(plan.max_sockets));
  return { args, selectsPorts: parsed.selectsPorts };
}

/** Runs nmap; false when it could not (the caller falls back to the built-in sweep). */
export async function nmapSweep(ctx: EngineContext, onProgress: (percent: number) => void): Promise<HostFinding[] | null> {
  const { plan } = ctx;
  const { args, selectsPorts } = nmapFlags(ctx);
  const rounds = Math.ceil(plan.targets.count / Math.max(1, plan.max_concurrent_hosts));
  const timeoutMs = Math.min(MAX_RUN_MS, Math.max(MIN_RUN_MS, rounds * plan.host_timeout_ms * 2));
  ctx.log("INFO", "nmap", `nmap ${args.join(" ")} over ${plan.targets.count} addresses`);
  try {
    return await runNmap({
      addresses: plan.targets.addresses(),
      args,
      ports: selectsPorts ? null : plan.tcp_ports,
      signal: ctx.signal,
      timeoutMs,
      command: ctx.nmapCommand,
      onProgress,
    });
  } catch (e) {
    if (e instanceof NmapError && e.reason === "aborted") return [];
    ctx.log("WARNING", "nmap", `${(e as Error).message}; the built-in sweep runs instead`, {
      reason: e instanceof NmapError ? e.reason : "failed",
    });
    return null;
  }
}
