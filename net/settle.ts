// The one way a probe here ends. `finish(value)` takes effect once: it clears the deadline, drops the
// abort listener and releases what the probe holds (its socket, request or session), so no path of a
// probe (answer, error, close, timeout, cancel) leaks a timer, a listener or a socket. The deadline and
// the abort both finish with `fallback`.
export function settleOnce<T>(
  resolve: (value: T) => void,
  options: { fallback: T; timeoutMs?: number | undefined; signal?: AbortSignal | undefined; release: () => void },
): (value: T) => void {
  let settled = false;
  const finish = (value: T) => {
    if (settled) return;
    settled = true;
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    options.release();
    resolve(value);
  };
  const onAbort = () => finish(options.fallback);
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(onAbort, options.timeoutMs);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  return finish;
}
