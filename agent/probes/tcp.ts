// tcp: connect to config.ports in order (else [config.port or 80]); the first port that accepts makes
// the check up, with its connect time as latency_ms.
import { Socket } from "node:net";
import { type Check, type CheckResult, down, elapsed, option, ProbeConfigError } from "./check.ts";

function connect(host: string, port: number, signal: AbortSignal, timeoutMs: number): Promise<{ ok: true; ms: number } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    const start = performance.now();
    const socket = new Socket();
    const done = (r: { ok: true; ms: number } | { ok: false; reason: string }) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      resolve(r);
    };
    const onAbort = () => done({ ok: false, reason: "aborted" });
    const timer = setTimeout(() => done({ ok: false, reason: "timeout" }), timeoutMs);
    signal.addEventListener("abort", onAbort);
    socket.once("connect", () => done({ ok: true, ms: elapsed(start) }));
    socket.once("error", (e: NodeJS.ErrnoException) => done({ ok: false, reason: e.code ?? e.message }));
    socket.connect({ host, port });
  });
}

export const tcpCheck: Check = async (host, config, signal, timeoutMs) => {
  const ports = option<unknown[] | null>(config, "ports", "object", null) ?? [option(config, "port", "number", 80)];
  if (!ports.length || ports.some((p) => !Number.isInteger(p) || (p as number) < 1 || (p as number) > 65535))
    throw new ProbeConfigError("config.port(s) must be integers 1..65535");
  const reasons: string[] = [];
  for (const port of ports as number[]) {
    if (signal.aborted) break;
    const r = await connect(host, port, signal, timeoutMs);
    if (r.ok) {
      const result: CheckResult = {
        up: true,
        samples: [{ metric: "avail", value: 1, error_reason: null }, { metric: "latency_ms", value: r.ms, error_reason: null }],
        msg: `port ${port} open`,
        details: { port },
      };
      return result;
    }
    reasons.push(`${port}: ${r.reason}`);
  }
  return down(`no port open (${reasons.join(", ")})`);
};
