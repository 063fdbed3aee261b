// The order of agent versions, newest first: what the server offers as "available" and what the console
// proposes by default (web/src/agents/), with no dependency so the browser bundle can take it.
const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/** Newest first: numeric runs compare as numbers ("1.10.0" after "1.9.2"); ties by the text. */
export function compareVersionsDesc(a: string, b: string): number {
  return collator.compare(b, a) || (a < b ? 1 : a > b ? -1 : 0);
}
