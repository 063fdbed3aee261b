// Field schemas shared by the inventory's request bodies, and the write-body rule of docs/architecture.md, API contracts:
// read-only fields of a resource's read shape are ignored, any other unknown field is a 422 naming it.
import * as v from "valibot";

export const Name = v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(200));
export const OptionalText = (max = 2000) => v.optional(v.nullable(v.pipe(v.string(), v.maxLength(max))));
export const OptionalNumber = (min = 0, max = 1e12) => v.optional(v.nullable(v.pipe(v.number(), v.minValue(min), v.maxValue(max))));
/** The largest PostgreSQL integer: every serial id and integer reference column is bounded by it. */
export const MAX_INT4 = 2_147_483_647;
export const OptionalInt = (min = 0, max = MAX_INT4) =>
  v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max))));
/** A reference to another row by its integer id, in a body: past the column's range it is a 422. */
export const Ref = v.pipe(
  v.number(),
  v.integer("Must be an integer id."),
  v.minValue(1, "Must be a positive integer id."),
  v.maxValue(MAX_INT4, `Must be at most ${MAX_INT4}.`),
);
export const RefId = v.optional(v.nullable(Ref));
export const TagName = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64));
export const Tags = v.optional(
  v.pipe(
    v.array(TagName),
    v.maxLength(50),
    v.transform((t) => [...new Set(t)]),
  ),
);
export const IpAddress = v.optional(
  v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(100),
      v.check((s) => s === "" || /^[0-9a-fA-F.:/%]+$/.test(s), "Not an IP address."),
    ),
  ),
);

/** Fields every read shape has that a client may send back but never writes. */
export const COMMON_READ_ONLY = ["id", "created_at", "updated_at", "version"] as const;

type Entries = v.ObjectEntries;

function unknownFieldCheck<T extends Record<string, unknown>>(known: Set<string>, ignored: Set<string>) {
  // Runs even when a known field failed, so one 422 names every problem at once.
  return v.rawCheck<T>(({ dataset, addIssue }) => {
    if (typeof dataset.value !== "object" || dataset.value === null || Array.isArray(dataset.value)) return;
    const value = dataset.value as Record<string, unknown>;
    for (const key of Object.keys(value)) {
      if (known.has(key) || ignored.has(key)) continue;
      addIssue({
        message: `Unknown field "${key}".`,
        path: [{ type: "object", origin: "key", input: value, key, value: value[key] }],
      });
    }
  });
}

/** A JSON object body with these fields; read-only fields are dropped, unknown fields refused. */
export function writeBody<E extends Entries>(entries: E, readOnly: readonly string[] = []) {
  const known = new Set(Object.keys(entries));
  const ignored = new Set<string>([...COMMON_READ_ONLY, ...readOnly]);
  const base = v.looseObject(entries);
  return v.pipe(
    base,
    unknownFieldCheck<v.InferOutput<typeof base>>(known, ignored),
    v.transform((o) => Object.fromEntries(Object.entries(o).filter(([k]) => known.has(k))) as v.InferOutput<v.ObjectSchema<E, undefined>>),
  );
}

/**
 * The PATCH form of a write body: every field optional, only the given ones change. A create default
 * (`v.optional(x, default)`) is dropped: an absent field must keep its stored value, not be reset to the
 * default (a PATCH of a status page's title once unpublished it).
 */
export function patchBody<E extends Entries>(entries: E, readOnly: readonly string[] = []) {
  const partial = Object.fromEntries(
    Object.entries(entries).map(([k, s]) => [
      k,
      v.optional(s.type === "optional" ? (s as unknown as v.OptionalSchema<v.GenericSchema, unknown>).wrapped : s),
    ]),
  ) as {
    [K in keyof E]: v.OptionalSchema<E[K], undefined>;
  };
  return writeBody(partial, readOnly);
}

/** A well-formed id past the integer range names no row: the route answers 404 for it (route.ts). */
export const idInRange = (n: number) => n <= MAX_INT4;

const PathId = v.pipe(
  v.string(),
  v.regex(/^\d{1,20}$/, "Must be a positive integer id."),
  v.transform(Number),
  v.check(idInRange, "No such id."),
);

/** The path parameters `{[name]: id, ...}` of a route addressing rows by their integer ids. */
export const IdParam = <const N extends readonly string[]>(...names: N) =>
  v.object(Object.fromEntries(names.map((n) => [n, PathId])) as { [K in N[number]]: typeof PathId });

/** `a,b,c` in a query string: the comma-separated values, each one of `values`; absent means all. */
export const CommaList = <const T extends readonly string[]>(values: T) =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform((s) =>
        s
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean),
      ),
      v.array(v.picklist(values, `Types are: ${values.join(", ")}.`)),
    ),
  );
