// The lab file's kinds that are API resources with verbs of their own (monitors, notification sinks,
// alert routes, status pages; docs/adr/0507): not rows the inventory import writes, but objects made
// true through their own create, patch and delete verbs, nested in the apply's transaction, so each
// check is the one the API makes (outbound policy, vault sealing, references, uniqueness, scopes). A
// kind is one file in api-kinds/ and one line in api-kinds/index.ts.
import * as v from "valibot";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";

export type Row = Record<string, unknown>;
/** The key of the object `id` of `kind` as the file names it (`#<id>` for one the file does not describe). */
export type KeyOf = (kind: string, id: number) => string;
/** The id of the file's entry `<kind>/<key>`; undefined for one not yet created (a dry run). */
export type IdOf = (kind: string, key: string) => number | undefined;

/** A key the file's fields name: `path` for messages, the kind and key it must be an entry of. */
export interface NamedKey {
  path: string;
  kind: string;
  key: string;
}

export interface ApiConfigKind {
  key: string;
  /** The table the objects live in (ownership rows are checked against it; entries adopt by name in it). */
  table: string;
  /** The column whose value is an entry's key when it gives none; null: every entry gives `key`. */
  nameField: string | null;
  /** The fields a file may give, as JSON Schema properties (x-ref, x-secret and x-secret-names marked). */
  schema: Record<string, Record<string, unknown>>;
  /** The keys of other entries the fields name (every one must be described by the file). */
  references(fields: Row): NamedKey[];
  /** Entries to write first (a monitor group before its members); the rest keep their order. */
  order?(entries: { key: string; fields: Row }[]): { key: string; fields: Row }[];
  /**
   * The stored objects in the file's terms: references as keys, secrets opened when `secrets` (for the
   * diff, never answered) or else each set secret as `true` (the export writes a placeholder there).
   */
  read(ctx: VerbContext, ids: number[], keyOf: KeyOf, secrets: boolean): Promise<Map<number, Row>>;
  /**
   * A stored value of `field` as the file's value is compared with it, where the kind has a default the
   * file may leave out (a secret the file leaves out is no change for any kind: withoutOmittedSecrets).
   */
  comparable?(field: string, stored: unknown, given: unknown): unknown;
  /** The API body of the file's fields, references made ids (placeholders in a dry run: only checked). */
  body(fields: Row, idOf: IdOf): Row;
  /** The create and patch rules (the API's own), for a refusal before any verb runs. */
  createRule: v.GenericSchema;
  patchRule: v.GenericSchema;
  create(ctx: VerbContext, body: Row): Promise<number>;
  update(ctx: VerbContext, id: number, body: Row): Promise<void>;
  remove(ctx: VerbContext, id: number): Promise<void>;
}

/** A placeholder id for a reference to an entry not yet created: the rules see a valid id. */
export const NOT_YET = 1;

/** The body checked by `rule`; its issues named by the entry (`objects.<kind>/<key>.<field>`). */
export function checkedBody(rule: v.GenericSchema, body: Row, entry: string): Row {
  const parsed = v.safeParse(rule, body);
  if (parsed.success) return parsed.output as Row;
  const issues: ValidationIssue[] = parsed.issues.map((i) => ({
    loc: ["body", "objects", entry, ...(i.path ?? []).map((p) => p.key as string | number)],
    msg: i.message,
    type: "value_error",
  }));
  throw ApiError.validation(issues);
}

/** Runs a verb for an entry; a refusal names the entry in its locations. */
export async function asEntry<T>(entry: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === "VALIDATION_ERROR" && Array.isArray(err.detail))
      throw ApiError.validation(err.detail.map((d) => ({ ...d, loc: ["body", "objects", entry, ...d.loc.filter((p) => p !== "body")] })));
    throw new ApiError(err.code, `${entry}: ${typeof err.detail === "string" ? err.detail : err.message}`, err.extra);
  }
}

/** `<kind>/<key>` split at its first slash (keys may hold slashes, kinds never do). */
export function splitRef(value: string): [string, string] {
  const at = value.indexOf("/");
  return at < 0 ? ["", value] : [value.slice(0, at), value.slice(at + 1)];
}

interface SecretMarks {
  "x-secret"?: boolean;
  "x-secret-names"?: string[];
  properties?: Record<string, SecretMarks>;
}

/**
 * `value` of `field` with every secret in it (where the kind's schema marks x-secret, or a member named
 * in x-secret-names) replaced by `replace(path)`, the path from the field down: the diff masks them, the
 * export writes a ${env:NAME} placeholder. Nulls stay (nothing is set there).
 */
export function mapSecrets(kind: ApiConfigKind, field: string, value: unknown, replace: (path: string[]) => unknown): unknown {
  const walk = (marks: SecretMarks | undefined, v: unknown, path: string[]): unknown => {
    if (!marks || v == null) return v;
    if (marks["x-secret"]) return replace(path);
    if (typeof v !== "object" || Array.isArray(v)) return v;
    const names = marks["x-secret-names"];
    return Object.fromEntries(
      Object.entries(v as Row).map(([k, x]) => [
        k,
        names?.includes(k.toLowerCase()) && x != null ? replace([...path, k]) : walk(marks.properties?.[k], x, [...path, k]),
      ]),
    );
  };
  return walk(kind.schema[field] as SecretMarks | undefined, value, [field]);
}

/**
 * The stored object `field` without the secret members (x-secret in the kind's schema) the file's value
 * leaves out: such a secret keeps its stored value, as PATCH does, so it is no change.
 */
export function withoutOmittedSecrets(kind: ApiConfigKind, field: string, stored: unknown, given: unknown): unknown {
  const members = (kind.schema[field] as SecretMarks | undefined)?.properties;
  if (!members || !stored || typeof stored !== "object" || !given || typeof given !== "object") return stored;
  const out: Row = { ...(stored as Row) };
  for (const [k, marks] of Object.entries(members)) if (marks["x-secret"] && !(k in (given as Row))) delete out[k];
  return out;
}
