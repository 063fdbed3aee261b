// dns: resolve the host's record_type (default A) through config.resolver:port (else the system's
// resolvers), up when it answers and every one of expected_values is among the answers (compared
// case-insensitively, without a trailing dot; an MX answer matches as "exchange" or "priority exchange").
import { Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import { DNS_RECORD_TYPES } from "../../shared/domain/monitors/check-types.ts";
import { type Check, CheckConfigError, ConfigReader, elapsed, failed, invalidConfig, reasonOf, succeeded } from "./result.ts";

const TYPES = new Set<string>(DNS_RECORD_TYPES);

const norm = (s: string) => s.trim().replace(/\.$/, "").toLowerCase();

/** Each answer's text forms, whatever its record type. */
export function answerTexts(answer: unknown): string[][] {
  const list = Array.isArray(answer) ? answer : [answer];
  return list.map((a: unknown) => {
    if (typeof a === "string") return [a];
    if (Array.isArray(a)) return [a.join("")];
    const r = a as Record<string, unknown>;
    if ("exchange" in r) return [String(r.exchange), `${r.priority} ${r.exchange}`];
    if ("nsname" in r) return [String(r.nsname), `${r.nsname} ${r.hostmaster} ${r.serial}`];
    if ("port" in r && "name" in r) return [String(r.name), `${r.priority} ${r.weight} ${r.port} ${r.name}`];
    if ("critical" in r) {
      const tag = Object.keys(r).find((k) => k !== "critical") ?? "";
      return [String(r[tag]), `${r.critical} ${tag} ${r[tag]}`];
    }
    return [JSON.stringify(a)];
  });
}

export const dnsCheck: Check = async (spec, signal, timeoutMs) => {
  const start = performance.now();
  let resolver: Resolver;
  let type: string;
  let expected: string[];
  try {
    const config = new ConfigReader(spec.config);
    type = config.string("record_type", "A").toUpperCase();
    if (!TYPES.has(type)) throw new CheckConfigError(`record_type ${type} is not supported`);
    expected = config.strings("expected_values", []);
    resolver = new Resolver({ timeout: Math.max(1, timeoutMs), tries: 1 });
    const server = config.string("resolver", null);
    const port = config.number("port", 53);
    if (server) resolver.setServers([`${server.includes(":") && !server.startsWith("[") ? `[${server}]` : server}:${port}`]);
  } catch (e) {
    return invalidConfig(e);
  }
  const onAbort = () => resolver.cancel();
  signal.addEventListener("abort", onAbort);
  try {
    // PTR of an address: its reverse name (in-addr.arpa / ip6.arpa) is what is asked.
    const answers = answerTexts(
      type === "PTR" && isIP(spec.host) ? await resolver.reverse(spec.host) : await resolver.resolve(spec.host, type),
    );
    const latency = elapsed(start);
    const forms = new Set(answers.flat().map(norm));
    const missing = expected.filter((e) => !forms.has(norm(e)));
    if (missing.length)
      return failed(
        `${type} ${spec.host}: expected ${missing.join(", ")} not among ${answers.map((a) => a[0]).join(", ") || "no answers"}`,
        latency,
      );
    return succeeded(
      `${type} ${spec.host}: ${answers
        .map((a) => a[0])
        .slice(0, 8)
        .join(", ")}`,
      latency,
    );
  } catch (e) {
    return failed(`${type} ${spec.host}: ${signal.aborted ? "timeout" : reasonOf(e)}`, signal.aborted ? null : elapsed(start));
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
};
