// ICMP echo for a sweep: addresses asking within a few milliseconds of each other are pinged by one
// small shell that starts one `ping -c1` per address at once. Spawning from Node blocks its event loop
// for the fork of a large process (milliseconds each, far more in a sandbox); one spawn per batch keeps
// a /22 sweep's event loop free for its sockets. Addresses reach the shell as arguments, never as code.
import { type ChildProcess, spawn } from "node:child_process";
import { pingFault } from "./ping-output.ts";
import type { PingResult } from "./ping.ts";

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const REPLY = /bytes from (\d{1,3}(?:\.\d{1,3}){3}): .*?time[=<]([\d.]+) ?ms/g;
const SCRIPT = 'cmd=$1; wait_s=$2; shift 2; for ip do "$cmd" -n -c 1 -W "$wait_s" "$ip" & done; wait';

export interface PingBatcherOptions {
  timeoutMs: number;
  /** Aborting kills every batch (and its pings) at once. */
  signal: AbortSignal;
  command?: string;
  /** Most addresses per shell. Default 64. */
  batchSize?: number;
  /** How long the first address of a batch waits for company. Default 5 ms. */
  lingerMs?: number;
}

interface Waiter {
  ip: string;
  resolve(r: PingResult): void;
}

/** Replies in ping output: address → round-trip ms. */
export function parseReplies(stdout: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of stdout.matchAll(REPLY)) if (!out.has(m[1]!)) out.set(m[1]!, Number(m[2]));
  return out;
}

export class PingBatcher {
  readonly #options: Required<Omit<PingBatcherOptions, "signal">> & { signal: AbortSignal };
  #pending: Waiter[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #children = new Set<ChildProcess>();

  constructor(options: PingBatcherOptions) {
    this.#options = { ...options, command: options.command ?? "ping", batchSize: options.batchSize ?? 64, lingerMs: options.lingerMs ?? 5 };
    options.signal.addEventListener("abort", () => this.#abort(), { once: true });
  }

  /** NO answer (alive false) on timeout, abort of `signal` or the scan; `fault` when ping cannot run. */
  ping(ip: string, signal?: AbortSignal): Promise<PingResult> {
    if (!IPV4.test(ip)) return Promise.resolve({ alive: false, rtt_ms: null, fault: `not an IPv4 address: ${ip}` });
    if (this.#options.signal.aborted || signal?.aborted) return Promise.resolve({ alive: false, rtt_ms: null, fault: null });
    return new Promise((resolve) => {
      const waiter: Waiter = {
        ip,
        resolve: (r) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(r);
        },
      };
      const onAbort = () => {
        const i = this.#pending.indexOf(waiter);
        if (i >= 0) this.#pending.splice(i, 1);
        waiter.resolve({ alive: false, rtt_ms: null, fault: null });
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#pending.push(waiter);
      if (this.#pending.length >= this.#options.batchSize) this.#flush();
      else this.#timer ??= setTimeout(() => this.#flush(), this.#options.lingerMs);
    });
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#pending.splice(0, this.#options.batchSize);
    if (this.#pending.length) this.#timer = setTimeout(() => this.#flush(), 0);
    if (batch.length === 0) return;
    const { command, timeoutMs } = this.#options;
    const waitS = String(Math.max(1, Math.ceil(timeoutMs / 1000)));
    let settled = false;
    let stdout = "";
    let stderr = "";
    const settle = (fault: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(killer);
      const replies = parseReplies(stdout);
      for (const w of batch) {
        const rtt = replies.get(w.ip);
        w.resolve(rtt === undefined ? { alive: false, rtt_ms: null, fault } : { alive: true, rtt_ms: rtt });
      }
    };
    // Its own process group, so a kill reaches the pings the shell started.
    const child = spawn("sh", ["-c", SCRIPT, "sh", command, waitS, ...batch.map((w) => w.ip)], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { LC_ALL: "C", PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    this.#children.add(child);
    const killer = setTimeout(() => this.#kill(child), timeoutMs + 500);
    child.stdout!.on("data", (c: Buffer) => void (stdout += c.toString()));
    child.stderr!.on("data", (c: Buffer) => void (stderr.length < 8192 && (stderr += c.toString())));
    child.on("error", (e) => {
      this.#children.delete(child);
      settle(`ping cannot run: ${e.message}`);
    });
    child.on("close", () => {
      this.#children.delete(child);
      const missing = /not found|No such file/i.test(stderr) ? `the system ping command (${command}) is not installed` : null;
      settle(missing ?? pingFault(stderr));
    });
  }

  #kill(child: ChildProcess): void {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  }

  #abort(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const w of this.#pending.splice(0)) w.resolve({ alive: false, rtt_ms: null, fault: null });
    for (const child of this.#children) this.#kill(child);
  }
}
