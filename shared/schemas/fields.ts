// Field schemas shared by the inventory's request bodies, and the write-body rule of DESIGN.md 3:
// read-only fields of a resource's read shape are ignored, any other unknown field is a 422 naming it.
import * as v from "valibot";

export const Name = v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(200));
export const OptionalText = (max = 2000) => v.optional(v.nullable(v.pipe(v.string(), v.maxLength(max))));
export const OptionalNumber = (min = 0, max = 1e12) => v.optional(v.nullable(v.pipe(v.number(), v.minValue(min), v.maxValue(max))));
export const OptionalInt = (min = 0, max = 2_147_483_647) => v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max))));
export const RefId = v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))));
export const TagName = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(64));
export const Tags = v.optional(v.pipe(v.array(TagName), v.maxLength(50), v.transform((t) => [...new Set(t)])));
export const IpAddress = v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(100), v.check((s) => s === "" || /^[0-9a-fA-F.:/%]+$/.test(s), "Not an IP address."))));

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

/** The PATCH form of a write body: every field optional, only the given ones change. */
export function patchBody<E extends Entries>(entries: E, readOnly: readonly string[] = []) {
  const partial = Object.fromEntries(
    Object.entries(entries).map(([k, s]) => [k, s.type === "optional" ? s : v.optional(s)]),
  ) as { [K in keyof E]: v.OptionalSchema<E[K], undefined> };
  return writeBody(partial, readOnly);
}

export const IdParam = (name: string) =>
  v.object({ [name]: v.pipe(v.string(), v.regex(/^\d{1,10}$/, "Must be a positive integer id."), v.transform(Number)) });
