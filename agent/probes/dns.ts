// dns: resolve the host's record_type (default A) through config.resolver (else the system's), up when
// it answers and, if expected_values are given, every one of them is among the answers.
import { Resolver } from "node:dns/promises";
import { type Check, down, elapsed, option, ProbeConfigError } from "./check.ts";

const TYPES = new Set(["A", "AAAA", "CNAME", "MX", "TXT", "NS", "SOA", "PTR", "SRV", "CAA"]);

/** Each answer as text, whatever its record type. */
function texts(answer: unknown): string[] {
  if (!Array.isArray(answer)) return [JSON.stringify(answer)];
  return answer.map((a) => (typeof a === "string" ? a : Array.isArray(a) ? a.join("") : (a as { exchange?: string; name?: string; value?: string }).exchange ?? (a as { name?: string }).name ?? JSON.stringify(a)));
}

export const dnsCheck: Check = async (host, config, signal, timeoutMs) => {
  const type = option(config, "record_type", "string", "A").toUpperCase();
  if (!TYPES.has(type)) throw new ProbeConfigError(`config.record_type ${type} is not supported`);
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  const server = option<string | null>(config, "resolver", "string", null);
  if (server) resolver.setServers([`${server.includes(":") ? `[${server}]` : server}:${option(config, "port", "number", 53)}`]);
  const expected = option<string[]>(config, "expected_values", "object", []);
  const onAbort = () => resolver.cancel();
  signal.addEventListener("abort", onAbort);
  const start = performance.now();
  try {
    const answers = texts(await resolver.resolve(host, type));
    const latency = elapsed(start);
    const missing = expected.filter((e) => !answers.includes(e));
    const up = missing.length === 0;
    return {
      up,
      samples: [
        { metric: "avail", value: up ? 1 : 0, error_reason: up ? null : "expected value missing" },
        { metric: "latency_ms", value: latency, error_reason: null },
      ],
      msg: up ? `${answers.length} ${type} record(s)` : `missing ${missing.join(", ")}`,
      details: { answers: answers.slice(0, 32) },
    };
  } catch (e) {
    return down((e as NodeJS.ErrnoException).code ?? (e as Error).message, elapsed(start));
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
};
