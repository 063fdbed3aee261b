// Loads data for a screen and reloads when its key changes; an answer that arrives after a newer request
// started is dropped, so fast paging never shows an older page. A read the server refused with 429 is
// read again after its Retry-After, and meanwhile the error is a ThrottledError whose message counts
// down ("The server is throttling requests; retrying in N s"), kept beside the data already shown
// (docs/adr/0463): every screen that shows its load's error says why its numbers are not moving.
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiProblem, ThrottledError } from "./api/problem.ts";

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

export interface LoadOptions {
  /** Holds the read while true: a screen that reads once its live stream is ready (live.tsx). */
  wait?: boolean;
}

/** When the server gave no Retry-After with its 429. */
const DEFAULT_RETRY_S = 10;

export function useLoad<T>(load: () => Promise<T>, key: unknown[], { wait = false }: LoadOptions = {}): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const [retryAt, setRetryAt] = useState<number | undefined>(undefined);
  const [, setClock] = useState(0);
  const seq = useRef(0);
  useEffect(() => {
    if (wait) return;
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => {
        if (mine !== seq.current) return;
        setRetryAt(undefined);
        setState({ data, error: undefined, loading: false });
      },
      (error: unknown) => {
        if (mine !== seq.current) return;
        if (error instanceof ApiProblem && error.status === 429) setRetryAt(Date.now() + (error.retryAfter ?? DEFAULT_RETRY_S) * 1000);
        else setRetryAt(undefined);
        setState((s) => ({ data: s.data, error, loading: false }));
      },
    );
  }, [...key, tick, wait]);
  // The countdown, and the read again when it is up.
  useEffect(() => {
    if (retryAt === undefined) return;
    const timer = setInterval(() => {
      if (Date.now() < retryAt) return setClock(Date.now());
      setRetryAt(undefined);
      setTick((t) => t + 1);
    }, 1000);
    return () => clearInterval(timer);
  }, [retryAt]);
  const error = retryAt !== undefined ? new ThrottledError(retryAt) : state.error;
  return { ...state, error, reload: () => setTick((t) => t + 1) };
}
