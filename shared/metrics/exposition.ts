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
  if (value == null) return "";
  // Most values need nothing; testing first keeps a large scrape cheap.
  return NEEDS_ESCAPE.test(value) ? value.replace(/[\\"\n]/g, (ch) => (ch === "\n" ? "\\n" : `\\${ch}`)) : value;
}
const NEEDS_ESCAPE = /[\\"\n]/;

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

function labelCount(f: Family, n: number): void {
  if (n !== f.labels.length) throw new Error(`${f.name} takes ${f.labels.length} label values, got ${n}`);
}

/** `name{l1="v1",l2="v2"` for the first values.length labels (no closing brace). */
function openSeries(f: Family, values: readonly LabelValue[]): string {
  let line = f.name;
  for (let i = 0; i < values.length; i++) line += `${i ? "," : "{"}${f.labels[i]}="${escapeLabelValue(values[i])}"`;
  return line;
}

/** One sample line; `values` follow the family's label names position by position. */
export function sampleLine(f: Family, values: readonly LabelValue[], value: number): string {
  labelCount(f, values.length);
  return `${openSeries(f, values)}${values.length ? "}" : ""} ${formatValue(value)}\n`;
}

/**
 * A page's lines as one string, grown row by row: V8 keeps it as a rope and flattens it once when the
 * chunk is encoded. `rows.map(line).join("")` flattened every row's line on its own and left an array
 * of them behind; this costs a scrape ~15% less server CPU (issue 37).
 */
export function pageText<R>(rows: readonly R[], line: (row: R) => string): string {
  let text = "";
  for (const row of rows) text += line(row);
  return text;
}

/**
 * Sample lines that share every label but the last, one per [last label value, value] pair: the shared
 * values are escaped once (svc_service_status writes four lines per service).
 */
export function sampleLinesOverLast(f: Family, shared: readonly LabelValue[], last: readonly (readonly [LabelValue, number])[]): string {
  labelCount(f, shared.length + 1);
  const head = `${openSeries(f, shared)}${shared.length ? "," : "{"}${f.labels[shared.length]}="`;
  let out = "";
  for (const [label, value] of last) out += `${head}${escapeLabelValue(label)}"} ${formatValue(value)}\n`;
  return out;
}
