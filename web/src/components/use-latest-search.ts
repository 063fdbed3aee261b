// Search as the user types without flooding a rate-limited route: a query is sent a moment after the
// last change, at most one request is in flight (a newer query waits and replaces any other waiting
// one), answers already had are reused, and after a refusal (429) nothing is sent until its Retry-After
// has passed. So typing sends at most one request per `delayMs`, whatever the typing speed.
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiProblem } from "../api/problem.ts";

export interface SearchAnswer<T> {
  query: string;
  data?: T;
  error?: unknown;
}

const REMEMBERED = 30;

export function useLatestSearch<T>(
  query: string,
  run: (query: string) => Promise<T>,
  delayMs = 300,
): { answer: SearchAnswer<T> | undefined; busy: boolean } {
  const [answer, setAnswer] = useState<SearchAnswer<T> | undefined>();
  const [busy, setBusy] = useState(false);
  const state = useRef({ inFlight: false, waiting: undefined as string | undefined, pausedUntil: 0, mounted: true });
  const cache = useRef(new Map<string, T>());
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(
    () => () => {
      state.current.mounted = false;
      clearTimeout(retry.current);
    },
    [],
  );

  const send = (q: string) => {
    const s = state.current;
    const wait = s.pausedUntil - Date.now();
    if (s.inFlight || wait > 0) {
      s.waiting = q;
      if (!s.inFlight && retry.current === undefined)
        retry.current = setTimeout(() => {
          retry.current = undefined;
          const next = s.waiting;
          s.waiting = undefined;
          if (next !== undefined && s.mounted) send(next);
        }, wait);
      return;
    }
    s.inFlight = true;
    setBusy(true);
    run(q)
      .then(
        (data) => {
          cache.current.set(q, data);
          if (cache.current.size > REMEMBERED) cache.current.delete(cache.current.keys().next().value!);
          if (s.mounted) setAnswer({ query: q, data });
        },
        (error: unknown) => {
          if (error instanceof ApiProblem && error.status === 429) s.pausedUntil = Date.now() + Math.max(1, error.retryAfter ?? 0) * 1000;
          if (s.mounted) setAnswer({ query: q, error });
        },
      )
      .finally(() => {
        s.inFlight = false;
        const next = s.waiting;
        s.waiting = undefined;
        if (!s.mounted) return;
        if (next !== undefined && next !== q) send(next);
        else setBusy(false);
      });
  };

  useEffect(() => {
    if (query === "") return;
    const known = cache.current.get(query);
    if (known !== undefined) {
      setAnswer({ query, data: known });
      return;
    }
    const t = setTimeout(() => send(query), delayMs);
    return () => clearTimeout(t);
  }, [query]);

  return { answer, busy };
}
