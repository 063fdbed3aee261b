// One ICMP echo through the system `ping` (iputils needs no root where net.ipv4.ping_group_range allows
// unprivileged ICMP sockets). The output is read by the icmp monitor's parser, so both agree on what a
// reply is. The child is killed when the signal aborts.
import { spawn } from "node:child_process";
import { parsePing, pingFault } from "./ping-output.ts";

export type PingResult = { alive: true; rtt_ms: number } | { alive: false; rtt_ms: null; fault: string | null };

export interface PingOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  command?: string;
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** `fault` is set when ping could not run at all (missing, not permitted): the sweep reports it once. */
export function ping(ip: string, options: PingOptions): Promise<PingResult> {
  if (!IPV4.test(ip)) return Promise.resolve({ alive: false, rtt_ms: null, fault: `not an IPv4 address: ${ip}` });
  const command = options.command ?? "ping";
  const waitS = String(Math.max(1, Math.ceil(options.timeoutMs / 1000)));
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve({ alive: false, rtt_ms: null, fault: null });
    let stdout = "";
    let stderr = "";
    let settled = false;
    const finish = (r: PingResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const child = spawn(command, ["-n", "-c", "1", "-W", waitS, "-w", waitS, ip], {
      signal: options.signal,
      stdio: ["ignore", "pipe", "pipe"],
      env: { LC_ALL: "C", PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    // -W counts whole seconds; a sub-second budget is enforced here.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ alive: false, rtt_ms: null, fault: null });
    }, options.timeoutMs + 100);
    child.stdout.on("data", (c: Buffer) => void (stdout.length < 8192 && (stdout += c.toString())));
    child.stderr.on("data", (c: Buffer) => void (stderr.length < 8192 && (stderr += c.toString())));
    child.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") finish({ alive: false, rtt_ms: null, fault: `the system ping command (${command}) is not installed` });
      else finish({ alive: false, rtt_ms: null, fault: e.name === "AbortError" ? null : `ping cannot run: ${e.code ?? e.message}` });
    });
    child.on("close", () => {
      const summary = parsePing(stdout);
      if (summary && summary.received > 0 && summary.rtt) return finish({ alive: true, rtt_ms: summary.rtt.avg });
      finish({ alive: false, rtt_ms: null, fault: pingFault(stderr) });
    });
  });
}
