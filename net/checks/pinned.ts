// For the check clients that take no custom lookup (the postgres, mysql and redis drivers): the one
// address to connect to, resolved through the monitor policy's lookup (reach.ts), so the driver is
// handed a checked IP and the name is kept for TLS; and the pieces the database checks share.
import { isIP } from "node:net";
import { type CheckOutcome, type CheckSpec, failed, succeeded } from "./result.ts";

/** The monitor's host resolved to an address the policy allows (the host itself when no policy is set). */
export function pinnedAddress(spec: CheckSpec): Promise<string> {
  const host = spec.host.replace(/^\[(.*)\]$/, "$1");
  const lookup = spec.reach?.lookup;
  if (!lookup) return Promise.resolve(host);
  return new Promise((resolve, reject) =>
    lookup(host, {}, (err, address) => (err ? reject(err) : resolve(typeof address === "string" ? address : address[0]!.address))),
  );
}

/** The TLS server name to verify: the host as named (none for an IP literal, which SNI cannot carry). */
export const serverNameOf = (spec: CheckSpec): string | undefined => {
  const host = spec.host.replace(/^\[(.*)\]$/, "$1");
  return isIP(host) ? undefined : host;
};

/** `work` unless `signal` aborts first (then an AbortError); `onAbort` closes what the work holds. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, onAbort: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort();
      reject(Object.assign(new Error("timeout"), { name: "AbortError" }));
    };
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** The message of a value that is not the one expected, or null when it is (or none is expected). */
export function valueMismatch(expected: string | null, got: string | null | undefined): string | null {
  if (expected === null || got === expected) return null;
  const shown = got === undefined ? "no rows" : got === null ? "NULL" : JSON.stringify(got);
  return `value mismatch: expected ${JSON.stringify(expected)} got ${shown}`;
}

/** The outcome of a query answered `got` (undefined: no rows) after `latency` ms: down on a value mismatch. */
export function queryOutcome(expected: string | null, got: string | null | undefined, latency: number): CheckOutcome {
  const mismatch = valueMismatch(expected, got);
  if (mismatch) return failed(mismatch, latency);
  return succeeded(expected === null ? "connected, query ran" : `connected, value ${JSON.stringify(got)}`, latency);
}
