// How answers are printed: a table fitted to the terminal (the kind's columns; -o wide: every scalar
// field), -o json, -o yaml, or --jq field selection. A list is printed chunk by chunk as it arrives, so the
// first line of a long list appears after the first chunk, not after the last; a table's columns are
// fitted to its first FIT_ROWS rows (or all of them, when fewer) and kept.
import { usageError } from "./exit.ts";
import { formatSelected, parsePath, select } from "./select.ts";
import { yaml } from "./yaml.ts";

export type Format = "table" | "wide" | "json" | "yaml" | "name";
export const FORMATS: Format[] = ["table", "wide", "json", "yaml", "name"];

export interface OutputOptions {
  output?: string;
  jq?: string;
  columns?: string;
}

export function formatOf(opts: OutputOptions): Format {
  const f = (opts.output ?? "table") as Format;
  if (!FORMATS.includes(f)) throw usageError(`-o ${opts.output}: use one of ${FORMATS.join(", ")}`);
  return f;
}

type Write = (text: string) => void;

export function cell(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v).replace(/\s+/g, " ");
}

/** Column widths for `rows`, shrunk (widest first, never below 4 or the header) to fit `width` characters. */
export function fitWidths(columns: string[], rows: unknown[][], width: number | undefined): number[] {
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => cell(r[i]).length)));
  if (!width) return widths;
  const total = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  while (total() > width) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if (widths[i]! > widths[widest]!) widest = i;
    const floor = Math.max(4, columns[widest]!.length);
    if (widths[widest]! <= floor) break;
    widths[widest] = Math.max(floor, widths[widest]! - (total() - width));
  }
  return widths;
}

function line(values: unknown[], widths: number[]): string {
  return values
    .map((v, i) => {
      const text = cell(v);
      const w = widths[i]!;
      const fitted = text.length > w ? `${text.slice(0, Math.max(0, w - 1))}…` : text;
      return i === values.length - 1 ? fitted : fitted.padEnd(w);
    })
    .join("  ")
    .trimEnd();
}

/** How many rows a table's column widths are fitted to before its first line is printed. */
export const FIT_ROWS = 100;

/** Prints a stream of objects (chunks of a list) in one format. */
export class ListPrinter {
  private widths: number[] | undefined;
  /** A table's first rows, held until there are FIT_ROWS of them to fit the columns to. */
  private held: unknown[][] = [];
  private count = 0;
  private readonly format: Format;
  private readonly paths;
  private readonly write: Write;
  private readonly columns: string[];
  private readonly nameField: string | undefined;
  private readonly terminalWidth: number | undefined;

  constructor(write: Write, opts: OutputOptions, columns: string[], nameField: string | undefined, terminalWidth: number | undefined) {
    this.write = write;
    this.columns = columns;
    this.nameField = nameField;
    this.terminalWidth = terminalWidth;
    this.format = formatOf(opts);
    this.paths = opts.jq ? parsePath(opts.jq) : undefined;
  }

  /** Prints a chunk of the list, in one write (a long list is many chunks, not many thousand writes). */
  page(items: Record<string, unknown>[]): void {
    let text = "";
    if (this.paths) {
      for (const item of items) for (const v of select(item, this.paths)) text += `${formatSelected(v)}\n`;
    } else if (this.format === "json") {
      for (const [i, item] of items.entries()) text += `${this.count + i === 0 ? "[\n" : ",\n"}  ${JSON.stringify(item)}`;
    } else if (this.format === "yaml") {
      if (items.length > 0) text = yaml().stringify(items);
    } else if (this.format === "name") {
      for (const item of items) text += `${cell(item[this.nameField ?? "id"] ?? item.id)}\n`;
    } else {
      const rows = items.map((item) => this.columns.map((c) => item[c]));
      if (this.widths) for (const r of rows) text += `${line(r, this.widths)}\n`;
      else {
        this.held.push(...rows);
        if (this.held.length >= FIT_ROWS) this.flushTable();
      }
    }
    if (text) this.write(text);
    this.count += items.length;
  }

  /** Fits the columns to the rows held, prints the header and them. */
  private flushTable(): void {
    this.widths = fitWidths(this.columns, this.held, this.format === "wide" ? undefined : this.terminalWidth);
    let text = `${line(
      this.columns.map((c) => c.toUpperCase()),
      this.widths,
    )}\n`;
    for (const r of this.held) text += `${line(r, this.widths)}\n`;
    this.held = [];
    this.write(text);
  }

  end(): void {
    if (this.paths) return;
    if (this.format === "json") this.write(this.count === 0 ? "[]\n" : "\n]\n");
    else if (this.format === "yaml" && this.count === 0) this.write("[]\n");
    else if ((this.format === "table" || this.format === "wide") && !this.widths) {
      if (this.held.length > 0) this.flushTable();
      else this.write("No objects.\n");
    }
  }
}

/** Prints one object: as YAML-like `field: value` lines for a table, or in the chosen format. */
export function printObject(write: Write, value: unknown, opts: OutputOptions): void {
  if (opts.jq) {
    for (const v of select(value, parsePath(opts.jq))) write(`${formatSelected(v)}\n`);
    return;
  }
  const format = formatOf(opts);
  if (format === "json") write(`${JSON.stringify(value, null, 2)}\n`);
  else write(yaml().stringify(value));
}
