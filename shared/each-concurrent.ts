// Bounded concurrency for every fan-out (the discovery sweep, LLDP walks, the agent's scan, the
// hypervisor reads): fn over an iterable with at most `limit` calls in flight, pulling items lazily (a /20
// never becomes an array), taking no new item once the signal aborts. The first error stops the rest
// and is thrown once the calls in flight have ended.

export async function eachConcurrent<T>(
  items: Iterable<T>,
  limit: number,
  signal: AbortSignal | undefined,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (!signal?.aborted && !failure) {
      const next = iterator.next();
      if (next.done) return;
      try {
        await fn(next.value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}

/** fn over `items` with at most `limit` calls in flight; the results in input order. */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  await eachConcurrent(items.keys(), limit, undefined, async (i) => {
    out[i] = await fn(items[i]!, i);
  });
  return out;
}
