// Runs the scans the server sends (discovery.request): agent_connect (TCP connect over the request's
// ports) and agent_icmp (one echo per address), over the targets within this agent's own scope, at most
// max_concurrent_hosts addresses at once and one open socket per host in flight. Each live host becomes
// one discovery.finding {kind: "host"}; every 2 s a summary reports progress; the last frame is a
// terminal summary (completed, cancelled, rejected or failed: timeout past the grant's job_timeout_seconds).
// discovery.cancel stops a scan within a second. Findings travel on the live link only (not spooled): a
// scan whose link drops stops, and the server fails its job (agent_offline), never half-replayed.
import { bytesToHex } from "@noble/hashes/utils.js";
import type { AgentPayloadInput, NetworkPayload } from "../../shared/agents/payloads.ts";
import type { AgentLog } from "../log.ts";
import { ping } from "../../net/ping.ts";
import { tcpProbe } from "../../net/tcp-connect.ts";
import { pingPath } from "./readiness.ts";
import { checkScope } from "./scope.ts";
import { eachConcurrent } from "../../shared/each-concurrent.ts";

export type FindingFrame = AgentPayloadInput<"discovery.finding">;

export interface ScannerOptions {
  send(payload: FindingFrame): void;
  log: AgentLog;
  /** The agent's interfaces and its local_discovery grant now. */
  scope(): { networks: NetworkPayload[]; enabled: boolean; config: Record<string, unknown> };
  progressMs?: number;
}

const DISPATCH = /^[0-9a-f]{32}$/;
const MAX_RUNNING = 4;
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").slice(0, 64) : []);
const ports = (v: unknown) =>
  Array.isArray(v) ? [...new Set(v.filter((x): x is number => Number.isInteger(x) && x >= 1 && x <= 65535))].slice(0, 1024) : [];
const clamp = (v: unknown, fallback: number, min: number, max: number) =>
  typeof v === "number" && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.trunc(v))) : fallback;

export class DiscoveryScanner {
  readonly #o: ScannerOptions;
  readonly #running = new Map<string, AbortController>();

  constructor(options: ScannerOptions) {
    this.#o = options;
  }

  get active(): number {
    return this.#running.size;
  }

  request(p: Record<string, unknown>): void {
    const dispatchId = typeof p.dispatch_id === "string" && DISPATCH.test(p.dispatch_id) ? p.dispatch_id : undefined;
    if (!dispatchId) return this.#o.log.warn("discovery.request without a valid dispatch_id ignored");
    if (this.#running.has(dispatchId)) return;
    const jobId = typeof p.job_id === "number" ? p.job_id : null;
    const end = (outcome: string, msg: string, extra: Partial<FindingFrame> = {}) =>
      this.#send({
        dispatch_id: dispatchId,
        scan_job_id: jobId,
        kind: "summary",
        terminal: true,
        outcome,
        msg: msg.slice(0, 2000),
        ...extra,
      });
    const { networks, enabled, config } = this.#o.scope();
    if (!enabled) return end("rejected", "local_discovery is not granted to this agent", { error_code: "capability_disabled" });
    if (this.#running.size >= MAX_RUNNING)
      return end("rejected", `at capacity: ${MAX_RUNNING} scans already running`, { error_code: "at_capacity" });
    const checked = checkScope(strings(p.targets), strings(p.exclude), networks, config);
    if (!checked.ok) return end("rejected", checked.msg, { error_code: checked.code });
    const types = strings(p.scan_types);
    const useIcmp = types.includes("agent_icmp");
    const useTcp = types.includes("agent_connect") || !useIcmp;
    const tcpPorts = ports(p.tcp_ports).length ? ports(p.tcp_ports) : ports(config.tcp_ports);
    const ping = useIcmp ? pingPath() : undefined;
    if (useIcmp && !ping && !useTcp) return end("failed", "agent_icmp needs a ping executable", { error_code: "tool_missing" });
    const controller = new AbortController();
    this.#running.set(dispatchId, controller);
    // The grant's job_timeout_seconds bounds every scan, whatever the request asked.
    const deadline = setTimeout(() => controller.abort("timeout"), clamp(config.job_timeout_seconds, 300, 30, 1800) * 1000);
    const scan = {
      dispatchId,
      jobId,
      addresses: [...checked.targets.addresses()],
      ports: useTcp ? tcpPorts : [],
      ping,
      timeoutMs: clamp(p.timeout_ms, clamp(config.host_timeout_ms, 1500, 100, 10_000), 100, 10_000),
      concurrency: Math.min(clamp(p.max_concurrent_hosts, 64, 1, 256), clamp(config.max_concurrent_hosts, 64, 1, 256)),
      signal: controller.signal,
    };
    this.#o.log.info(`discovery ${dispatchId}: ${scan.addresses.length} addresses, ${scan.ports.length} ports${ping ? ", icmp" : ""}`);
    void this.#scan(scan)
      .then(
        ({ done, found }) => {
          const reason = controller.signal.aborted ? String(controller.signal.reason) : null;
          this.#o.log.info(
            `discovery ${dispatchId}: ${reason === null ? "completed" : reason === "timeout" ? "timed out" : `cancelled (${reason})`} after ${done} addresses, ${found} hosts`,
          );
          const counts = { hosts_found: found, addresses_scanned: done };
          if (reason === "timeout")
            end("failed", `the scan ran past the grant's job_timeout_seconds after ${done} addresses`, {
              ...counts,
              error_code: "timeout",
            });
          else if (reason !== null) end("cancelled", `cancelled: ${reason}`, counts);
          else end("completed", `${found} hosts found in ${done} addresses`, counts);
        },
        (e: unknown) => end("failed", `scan failed: ${(e as Error).message}`, { error_code: "agent_error" }),
      )
      .finally(() => {
        clearTimeout(deadline);
        this.#running.delete(dispatchId);
      });
  }

  cancel(p: Record<string, unknown>): void {
    if (typeof p.dispatch_id === "string") this.#running.get(p.dispatch_id)?.abort(typeof p.reason === "string" ? p.reason : "cancelled");
  }

  cancelAll(reason: string): void {
    for (const c of this.#running.values()) c.abort(reason);
  }

  #send(payload: Omit<FindingFrame, "finding_id">): void {
    this.#o.send({
      ...payload,
      finding_id: bytesToHex(crypto.getRandomValues(new Uint8Array(16))),
      observed_at: new Date().toISOString(),
    } as FindingFrame);
  }

  async #scan(s: {
    dispatchId: string;
    jobId: number | null;
    addresses: string[];
    ports: number[];
    ping: string | undefined;
    timeoutMs: number;
    concurrency: number;
    signal: AbortSignal;
  }) {
    let done = 0;
    let found = 0;
    const progress = setInterval(
      () =>
        this.#send({
          dispatch_id: s.dispatchId,
          scan_job_id: s.jobId,
          kind: "summary",
          terminal: false,
          addresses_scanned: done,
          hosts_found: found,
          msg: `${done} of ${s.addresses.length} addresses`,
        }),
      this.#o.progressMs ?? 2_000,
    );
    const probeHost = async (ip: string) => {
      const open: number[] = [];
      let up = false;
      const evidence: string[] = [];
      if (s.ping && (await ping(ip, { command: s.ping, timeoutMs: s.timeoutMs, signal: s.signal })).alive) {
        up = true;
        evidence.push("icmp");
      }
      for (const port of s.ports) {
        if (s.signal.aborted) return;
        // Open, or refused (the host answered): either proves it up.
        const { state } = await tcpProbe(ip, port, { timeoutMs: s.timeoutMs, signal: s.signal });
        if (state === "open") open.push(port);
        if (state === "open" || state === "closed") up = true;
      }
      if (s.ports.length && up) evidence.push("tcp");
      if (!up || s.signal.aborted) return;
      found++;
      this.#send({
        dispatch_id: s.dispatchId,
        scan_job_id: s.jobId,
        kind: "host",
        ip_address: ip,
        open_ports: open.slice(0, 64).map((port) => ({ port, protocol: "tcp" })),
        evidence,
      });
    };
    try {
      await eachConcurrent(s.addresses, s.concurrency, s.signal, async (ip) => {
        await probeHost(ip);
        done++;
      });
    } finally {
      clearInterval(progress);
    }
    return { done, found };
  }
}
