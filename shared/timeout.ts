/** What withTimeout rejects with when the time is up (callers tell "no answer" from a failure by it). */
export class TimeoutError extends Error {}

/** Settles like `p`, or rejects with a TimeoutError after `ms` milliseconds; the timer is cleared either way. */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new TimeoutError(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}
