// Runs fn over an iterable with at most `limit` calls in flight, pulling items lazily (a /20 never becomes
// an array), and stops taking new items once the signal aborts. The first error stops the rest and is thrown.

export async function eachConcurrent<T>(items: Iterable<T>, limit: number, signal: AbortSignal, fn: (item: T) => Promise<void>): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (!signal.aborted && !failure) {
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
