// The state of one form submission: busy while the request runs, the API's error (with its field
// messages) afterwards. The form stays as the user typed it on an error.
import { useState } from "preact/hooks";
import { ApiProblem } from "../api/problem.ts";

export interface Submit {
  busy: boolean;
  error: string | undefined;
  fields: Record<string, string>;
  /** The error for the form's own line: none when one of `shown` (the form's fields) already says it. */
  errorBesides(shown: readonly string[]): string | undefined;
  run(action: () => Promise<void>): Promise<void>;
}

export function useSubmit(): Submit {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [fields, setFields] = useState<Record<string, string>>({});
  return {
    busy,
    error,
    fields,
    errorBesides: (shown) => (shown.some((k) => fields[k]) ? undefined : error),
    async run(action) {
      setBusy(true);
      setError(undefined);
      setFields({});
      try {
        await action();
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
        if (e instanceof ApiProblem) setFields(e.fields);
      } finally {
        setBusy(false);
      }
    },
  };
}
