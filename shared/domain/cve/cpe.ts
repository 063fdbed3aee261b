// CPE 2.3 formatted strings (NISTIR 7695 section 6.2): `cpe:2.3:part:vendor:product:version:update:edition:
// language:sw_edition:target_sw:target_hw:other`. A backslash quotes the next character (`\:` is a colon
// inside a value, `\.` a dot), `*` alone is ANY and `-` alone is NA. Vendor and product are compared in
// their normalised form: unquoted, lower case, spaces as `_` (how NVD writes them).

export const CPE_ANY = "*";
export const CPE_NA = "-";

export interface Cpe23 {
  part: "a" | "o" | "h";
  vendor: string;
  product: string;
  version: string;
  update: string;
  edition: string;
  language: string;
  sw_edition: string;
  target_sw: string;
  target_hw: string;
  other: string;
}

const FIELDS = [
  "part",
  "vendor",
  "product",
  "version",
  "update",
  "edition",
  "language",
  "sw_edition",
  "target_sw",
  "target_hw",
  "other",
] as const;

export class CpeParseError extends Error {
  override name = "CpeParseError";
}

/** Splits on unquoted colons; each value keeps its quoting until unquote(). */
function splitFields(s: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === "\\") {
      if (i + 1 >= s.length) throw new CpeParseError(`A CPE cannot end with a lone backslash: ${s}`);
      cur += ch + s[i + 1];
      i++;
    } else if (ch === ":") {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** A value without its quoting: `\:` -> `:`, `\.` -> `.`; `*` and `-` stay the logical ANY and NA. */
export function unquote(value: string): string {
  if (value === CPE_ANY || value === CPE_NA) return value;
  return value.replace(/\\(.)/g, "$1");
}

/** Parses a CPE 2.3 formatted string; throws CpeParseError when it is not one. */
export function parseCpe23(s: string): Cpe23 {
  if (!s.startsWith("cpe:2.3:")) throw new CpeParseError(`Not a CPE 2.3 formatted string: ${s.slice(0, 80)}`);
  const fields = splitFields(s.slice("cpe:2.3:".length));
  if (fields.length !== FIELDS.length)
    throw new CpeParseError(`A CPE 2.3 string has 11 fields after cpe:2.3, this one ${fields.length}: ${s.slice(0, 120)}`);
  if (fields.some((f) => f === "")) throw new CpeParseError(`A CPE 2.3 field is empty: ${s.slice(0, 120)}`);
  const part = fields[0]!;
  if (part !== "a" && part !== "o" && part !== "h") throw new CpeParseError(`CPE part must be a, o or h, not "${part}".`);
  const out = { part } as Cpe23;
  FIELDS.forEach((name, i) => {
    if (i > 0) (out as unknown as Record<string, string>)[name] = unquote(fields[i]!);
  });
  return out;
}

/** A vendor or product as NVD spells it: lower case, trimmed, runs of spaces as one `_`. */
export function normaliseName(name: string): string {
  return name.trim().toLowerCase().replace(/\\(.)/g, "$1").replace(/\s+/g, "_");
}

/** Whether a value is a concrete one (neither ANY nor NA). */
export const isSpecific = (value: string): boolean => value !== CPE_ANY && value !== CPE_NA;
