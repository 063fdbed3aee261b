// Custom field rules (docs/custom-fields.md, docs/adr/0495): what a definition may say, and what a value
// of each type may be. Pure: the verbs load the definitions and check references exist; this decides
// everything else, naming each problem by the field path the API reports (`custom_fields.<name>`).

export const CUSTOM_FIELD_TYPES = [
  "text",
  "integer",
  "decimal",
  "boolean",
  "date",
  "url",
  "selection",
  "multi_selection",
  "reference",
] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** A field's name: the key in `custom_fields` and the `cf_<name>` of list filters, sorts and CSV columns. */
export const CUSTOM_FIELD_NAME = /^[a-z][a-z0-9_]*$/;
/** Text values are bounded whatever the definition says (a text column holds a line or a paragraph, not a file). */
export const CUSTOM_TEXT_MAX = 10_000;

export interface CustomFieldDefinition {
  name: string;
  type: CustomFieldType;
  kinds: string[];
  required: boolean;
  default_value: unknown;
  choices: string[];
  reference_kind: string | null;
  regex: string | null;
  min_value: number | null;
  max_value: number | null;
  min_length: number | null;
  max_length: number | null;
}

/** A problem with one field: `field` is the path the 422 names. */
export interface FieldIssue {
  field: string;
  msg: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

function isUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

function lengthProblem(def: CustomFieldDefinition, s: string): string | undefined {
  if (def.min_length != null && s.length < def.min_length) return `Must be at least ${def.min_length} characters.`;
  const max = Math.min(def.max_length ?? CUSTOM_TEXT_MAX, CUSTOM_TEXT_MAX);
  if (s.length > max) return `Must be at most ${max} characters.`;
  return undefined;
}

function rangeProblem(def: CustomFieldDefinition, n: number): string | undefined {
  if (def.min_value != null && n < def.min_value) return `Must be at least ${def.min_value}.`;
  if (def.max_value != null && n > def.max_value) return `Must be at most ${def.max_value}.`;
  return undefined;
}

/** Why a (non-null) value is not one the field takes, or undefined when it is. */
export function valueProblem(def: CustomFieldDefinition, value: unknown): string | undefined {
  switch (def.type) {
    case "text":
    case "url": {
      if (typeof value !== "string") return "Must be a string.";
      if (def.type === "url" && !isUrl(value)) return "Must be an http or https URL.";
      const length = lengthProblem(def, value);
      if (length) return length;
      if (def.type === "text" && def.regex && !new RegExp(def.regex, "u").test(value)) return `Must match ${def.regex}.`;
      return undefined;
    }
    case "integer":
      if (typeof value !== "number" || !Number.isSafeInteger(value)) return "Must be a whole number.";
      return rangeProblem(def, value);
    case "decimal":
      if (typeof value !== "number" || !Number.isFinite(value)) return "Must be a number.";
      return rangeProblem(def, value);
    case "boolean":
      return typeof value === "boolean" ? undefined : "Must be true or false.";
    case "date":
      return typeof value === "string" && isDate(value) ? undefined : "Must be a date (YYYY-MM-DD).";
    case "selection":
      return typeof value === "string" && def.choices.includes(value) ? undefined : `Must be one of: ${def.choices.join(", ")}.`;
    case "multi_selection": {
      if (!Array.isArray(value)) return "Must be a list of choices.";
      const bad = value.find((x) => typeof x !== "string" || !def.choices.includes(x));
      if (bad !== undefined) return `Each must be one of: ${def.choices.join(", ")}.`;
      if (new Set(value).size !== value.length) return "Lists a choice twice.";
      return undefined;
    }
    case "reference":
      return typeof value === "number" && Number.isSafeInteger(value) && value > 0 && value <= 2_147_483_647
        ? undefined
        : `Must be the id of a ${def.reference_kind ?? "object"}.`;
  }
}

export interface ResolvedValues {
  /** The object's values after the write: stored ones merged with those given (null clears), defaults on create. */
  values: Record<string, unknown>;
  issues: FieldIssue[];
  /** The references the values make, for the caller to check they exist: field, kind, id. */
  references: { field: string; kind: string; id: number }[];
}

/**
 * The values an object of a kind has after a write. `defs` are the definitions applying to the kind;
 * `stored` what the row holds (undefined on create); `given` what the body's `custom_fields` says (per key:
 * a value sets, null clears, an absent key keeps). On create a field without a value gets its default;
 * every field the result lacks that is required is an issue, as is every unknown name and bad value.
 */
export function resolveValues(
  defs: readonly CustomFieldDefinition[],
  stored: Record<string, unknown> | undefined,
  given: Record<string, unknown>,
): ResolvedValues {
  const byName = new Map(defs.map((d) => [d.name, d]));
  const issues: FieldIssue[] = [];
  // Only defined fields are kept: a stored key whose definition went is not carried on.
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(stored ?? {})) if (byName.has(k) && v !== null) values[k] = v;
  for (const [k, v] of Object.entries(given)) {
    const def = byName.get(k);
    if (!def) {
      issues.push({ field: `custom_fields.${k}`, msg: `No custom field "${k}" applies to this kind.` });
      continue;
    }
    if (v === null) {
      delete values[k];
      continue;
    }
    const problem = valueProblem(def, v);
    if (problem) issues.push({ field: `custom_fields.${k}`, msg: problem });
    else values[k] = v;
  }
  if (stored === undefined)
    for (const def of defs)
      if (values[def.name] === undefined && def.default_value != null && !(def.name in given)) values[def.name] = def.default_value;
  for (const def of defs)
    if (def.required && values[def.name] === undefined && !issues.some((i) => i.field === `custom_fields.${def.name}`))
      issues.push({ field: `custom_fields.${def.name}`, msg: "Required." });
  const references = defs
    .filter((d) => d.type === "reference" && d.reference_kind && typeof values[d.name] === "number" && d.name in given)
    .map((d) => ({ field: `custom_fields.${d.name}`, kind: d.reference_kind!, id: values[d.name] as number }));
  return { values, issues, references };
}

const TAKES_CHOICES: readonly CustomFieldType[] = ["selection", "multi_selection"];
const NUMERIC: readonly CustomFieldType[] = ["integer", "decimal"];
const TEXTUAL: readonly CustomFieldType[] = ["text", "url"];

/**
 * What is wrong with a definition as a whole (each issue names the definition's own field): choices only
 * for selections and at least one there, a referenced kind only for references, a regex that compiles and
 * only for text, bounds only where they mean something and not crossed, a default the field itself takes.
 */
export function definitionIssues(def: CustomFieldDefinition, objectKinds: readonly string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const add = (field: string, msg: string) => issues.push({ field, msg });
  if (!CUSTOM_FIELD_NAME.test(def.name)) add("name", "Must start with a lowercase letter, then lowercase letters, digits or _.");
  if (def.kinds.length === 0) add("kinds", "Name at least one inventory kind.");
  const unknownKind = def.kinds.find((k) => !objectKinds.includes(k));
  if (unknownKind !== undefined) add("kinds", `Unknown kind "${unknownKind}"; kinds are: ${objectKinds.join(", ")}.`);
  if (TAKES_CHOICES.includes(def.type)) {
    if (def.choices.length === 0) add("choices", "A selection needs at least one choice.");
    if (new Set(def.choices).size !== def.choices.length) add("choices", "Lists a choice twice.");
  } else if (def.choices.length > 0) add("choices", "Only selections have choices.");
  if (def.type === "reference") {
    if (!def.reference_kind) add("reference_kind", "A reference names the kind it refers to.");
    else if (!objectKinds.includes(def.reference_kind)) add("reference_kind", `Unknown kind; kinds are: ${objectKinds.join(", ")}.`);
  } else if (def.reference_kind) add("reference_kind", "Only references name a kind.");
  if (def.regex != null) {
    if (def.type !== "text") add("regex", "Only text fields have a regex.");
    else
      try {
        new RegExp(def.regex, "u");
      } catch (e) {
        add("regex", `Not a valid regular expression: ${(e as Error).message}`);
      }
  }
  if ((def.min_value != null || def.max_value != null) && !NUMERIC.includes(def.type))
    add("min_value", "Only numbers have a minimum or maximum.");
  if (def.min_value != null && def.max_value != null && def.min_value > def.max_value) add("max_value", "Must not be below min_value.");
  if ((def.min_length != null || def.max_length != null) && !TEXTUAL.includes(def.type))
    add("min_length", "Only text and URL fields have a length bound.");
  if (def.min_length != null && def.max_length != null && def.min_length > def.max_length)
    add("max_length", "Must not be below min_length.");
  if (def.default_value != null && issues.length === 0) {
    const problem = valueProblem(def, def.default_value);
    if (problem) add("default", problem);
  }
  return issues;
}

/**
 * A `cf_<name>` query value read as the field's type, or undefined when it cannot be one (a 422): numbers
 * and references as numbers, booleans as true/false, everything else as the string given.
 */
export function filterValue(def: CustomFieldDefinition, raw: string): string | number | boolean | undefined {
  switch (def.type) {
    case "integer":
    case "reference":
      return /^-?\d{1,15}$/.test(raw) ? Number(raw) : undefined;
    case "decimal":
      return raw.trim() !== "" && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
    case "boolean":
      return raw === "true" ? true : raw === "false" ? false : undefined;
    case "date":
      return isDate(raw) ? raw : undefined;
    default:
      return raw;
  }
}

/**
 * A CSV cell's text as the field's value (the CSV import, docs/csv-import.md): numbers, references and
 * booleans as the export writes them, a multi-selection split on commas; text that cannot be the type is
 * passed on as it is, so the value rules refuse it with their own message.
 */
export function csvCellValue(def: CustomFieldDefinition, text: string): unknown {
  if (def.type === "multi_selection")
    return text
      .split(",")
      .map((x) => x.trim())
      .filter((x) => x !== "");
  return filterValue(def, text.trim()) ?? text;
}
