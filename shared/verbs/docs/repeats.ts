// Bulk bodies whose items are matched by a key (a document title, a graph node id, a KB pattern or
// prefix) must name each key once: a 422 pointing at every repeat and at its first occurrence.
import { ApiError } from "../../errors.ts";

export function refuseRepeats<T>(items: T[], key: (item: T) => string, loc: (index: number) => (string | number)[], what: string): void {
  const first = new Map<string, number>();
  const issues = items.flatMap((item, i) => {
    const k = key(item);
    const seen = first.get(k);
    if (seen === undefined) return (first.set(k, i), []);
    return [{ loc: ["body", ...loc(i)], msg: `${k} is already at index ${seen}: ${what}.`, type: "duplicate" }];
  });
  if (issues.length > 0) throw ApiError.validation(issues);
}
