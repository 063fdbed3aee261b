// The Prometheus text exposition format 0.0.4, written by hand because every scrape builds a fresh
// registry from stored data (spec 4.3): HELP/TYPE headers, sample lines, label escaping, numbers.

export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export type MetricType = "gauge" | "counter" | "untyped";

/** A metric family: its name, HELP text, type and label names (in the order they are written). */
export interface Family {
  name: string;
  help: string;
  type: MetricType;
  labels: readonly string[];
}

/** Null and undefined label values are written as empty strings. */
export type LabelValue = string | null | undefined;

/** Label values escape backslash, double quote and newline. */
export function escapeLabelValue(value: LabelValue): string {
  return (value ?? "").replace(/[\\"\n]/g, (ch) => (ch === "\n" ? "\\n" : `\\${ch}`));
}

/** HELP text escapes backslash and newline only. */
export function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (ch) => (ch === "\n" ? "\\n" : "\\\\"));
}

/** Integers plain, other finite numbers as JavaScript prints them (Go parses both), NaN and ±Inf per the format. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

/** The HELP and TYPE lines that open a family. */
export function familyHeader(f: Family): string {
  return `# HELP ${f.name} ${escapeHelp(f.help)}\n# TYPE ${f.name} ${f.type}\n`;
}

/** One sample line; `values` follow the family's label names position by position. */
export function sampleLine(f: Family, values: readonly LabelValue[], value: number): string {
  if (values.length !== f.labels.length) throw new Error(`${f.name} takes ${f.labels.length} label values, got ${values.length}`);
  const labels = f.labels.length ? `{${f.labels.map((l, i) => `${l}="${escapeLabelValue(values[i])}"`).join(",")}}` : "";
  return `${f.name}${labels} ${formatValue(value)}\n`;
}
