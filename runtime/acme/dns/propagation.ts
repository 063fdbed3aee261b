// Waits, bounded, until every authoritative server of the zone answers the dns-01 TXT value, so the CA
// (which asks them, or resolvers that ask them) finds it on its first look: Let's Encrypt does not
// retry a failed dns-01 validation. Not seeing it in time is not an error here: the order goes on and
// the CA's validation is the judge (its refusal is then the 502 the caller gets).
import type { OutboundPolicy } from "../../../shared/domain/net/outbound-policy.ts";
import { type DnsServer, exchange, serverLabel } from "./transport.ts";
import { buildQuery, newMessageId, parseMessage, TYPE, txtValue } from "./wire.ts";

export interface PropagationResult {
  seen: boolean;
  /** The servers that had not answered the value when the wait ended, with the last reason. */
  missing: string[];
}

async function answers(
  server: DnsServer,
  fqdn: string,
  value: string,
  policy: OutboundPolicy,
  signal?: AbortSignal,
): Promise<string | null> {
  try {
    const msg = parseMessage(
      await exchange(server, buildQuery(newMessageId(), fqdn, TYPE.TXT), { policy, timeoutMs: 3000, ...(signal ? { signal } : {}) }),
    );
    const found = msg.answers.some(
      (rr) => rr.type === TYPE.TXT && rr.name === fqdn.toLowerCase().replace(/\.$/, "") && txtValue(msg, rr) === value,
    );
    return found ? null : "the TXT value is not there yet";
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export async function waitForTxt(
  servers: DnsServer[],
  fqdn: string,
  value: string,
  opts: { policy: OutboundPolicy; timeoutMs: number; intervalMs?: number; signal?: AbortSignal },
): Promise<PropagationResult> {
  const pending = new Map(servers.map((s) => [serverLabel(s), { server: s, why: "not asked" }]));
  const deadline = Date.now() + opts.timeoutMs;
  while (pending.size > 0 && !opts.signal?.aborted) {
    await Promise.all(
      [...pending].map(async ([label, entry]) => {
        const why = await answers(entry.server, fqdn, value, opts.policy, opts.signal);
        if (why === null) pending.delete(label);
        else entry.why = why;
      }),
    );
    if (pending.size === 0 || Date.now() + (opts.intervalMs ?? 1000) > deadline) break;
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 1000));
  }
  return { seen: pending.size === 0, missing: [...pending].map(([label, e]) => `${label}: ${e.why}`) };
}
