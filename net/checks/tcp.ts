// tcp: connect to config.ports in order (else [config.port or 80]); the first port that accepts makes the
// check up, with its connect time as latency_ms. The whole list shares the check's one timeout.
import { type LookupFunction, Socket } from "node:net";
import { type Check, CheckConfigError, ConfigReader, elapsed, failed, invalidConfig, reasonOf, succeeded } from "./result.ts";

type Attempt = { ok: true; ms: number } | { ok: false; reason: string };

function connect(host: string, port: number, signal: AbortSignal, lookup: LookupFunction | undefined): Promise<Attempt> {
  return new Promise((resolve) => {
    const start = performance.now();
    const socket = new Socket();
    const done = (r: Attempt) => {
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      resolve(r);
    };
    const onAbort = () => done({ ok: false, reason: "timeout" });
    if (signal.aborted) return done({ ok: false, reason: "timeout" });
    signal.addEventListener("abort", onAbort);
    socket.once("connect", () => done({ ok: true, ms: elapsed(start) }));
    socket.once("error", (e: NodeJS.ErrnoException) => done({ ok: false, reason: reasonOf(e) }));
    // The monitor policy's lookup (reach.ts): a name resolving to a refused address fails with EOUTBOUNDPOLICY.
    socket.connect({ host, port, ...(lookup ? { lookup } : {}) });
  });
}

export const tcpCheck: Check = async (spec, signal) => {
  let ports: number[];
  try {
    const config = new ConfigReader(spec.config);
    ports = config.numbers("ports", null) ?? [config.number("port", 80)];
    if (!ports.length || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535))
      throw new CheckConfigError("port(s) must be integers 1..65535");
  } catch (e) {
    return invalidConfig(e);
  }
  const reasons: string[] = [];
  for (const port of ports) {
    const r = await connect(spec.host, port, signal, spec.reach?.lookup);
    if (r.ok) return succeeded(`port ${port} open`, r.ms);
    reasons.push(`${port}: ${r.reason}`);
    if (signal.aborted) break;
  }
  return failed(`no port open (${reasons.join(", ")})`);
};
