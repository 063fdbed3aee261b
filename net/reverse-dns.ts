// Reverse DNS (PTR) of one address with a time bound, through c-ares (node:dns Resolver) so a slow
// server cannot hold a thread of libuv's pool as getnameinfo would. `servers` overrides the system's.
import { Resolver } from "node:dns/promises";

export interface ReverseDnsOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** "127.0.0.53" or "127.0.0.53:5353"; the system resolvers when absent. */
  servers?: string[];
}

/** The first PTR name (lower-case, without a trailing dot), or null when none or no answer in time. */
export async function reverseDns(ip: string, options: ReverseDnsOptions): Promise<string | null> {
  if (options.signal?.aborted) return null;
  const resolver = new Resolver({ timeout: Math.max(1, Math.round(options.timeoutMs)), tries: 1 });
  if (options.servers?.length) resolver.setServers(options.servers);
  const onAbort = () => resolver.cancel();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise<null>((resolve) => (timer = setTimeout(() => (resolver.cancel(), resolve(null)), options.timeoutMs)));
    const names = await Promise.race([resolver.reverse(ip).catch(() => null), deadline]);
    const name = names?.[0];
    return name ? name.replace(/\.$/, "").toLowerCase() : null;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}
