// Loads data for a screen and reloads when its key changes; an answer that arrives after a newer request
// started is dropped, so fast paging never shows an older page.
import { useEffect, useRef, useState } from "preact/hooks";

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

export function useLoad<T>(load: () => Promise<T>, key: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => mine === seq.current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => mine === seq.current && setState((s) => ({ data: s.data, error, loading: false })),
    );
  }, [...key, tick]);
  return { ...state, reload: () => setTick((t) => t + 1) };
}
