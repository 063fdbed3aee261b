// One entry of a lab file as POST /config/apply takes it, a field's change as the diff answers it, and
// what both parts of the apply share: the inventory's (apply-config.ts) and the API kinds'
// (apply-api-kinds.ts).
import { ApiError } from "../../errors.ts";

type Row = Record<string, unknown>;

export interface ConfigEntry {
  kind: string;
  key: string;
  fields: Row;
}

export interface FieldChange {
  from: unknown;
  to: unknown;
}

/** A value with every null (and undefined) member left out, deeply: absent and null compare equal. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, x]) => x !== null && x !== undefined)
        .map(([k, x]) => [k, withoutNulls(x)]),
    );
  return value ?? null;
}

/**
 * The one object an entry adopts by name among `ids` (those of its kind so named), if any; several is
 * a refusal, since the entry cannot say which.
 */
export function adoptedId(ids: number[], entry: string, kind: string): number | undefined {
  if (ids.length > 1)
    throw ApiError.validation([
      {
        loc: ["body", "objects", entry],
        msg: `${ids.length} ${kind} objects are named so (ids ${ids.join(", ")}): give the entry the name of one only.`,
        type: "conflict",
      },
    ]);
  return ids[0];
}
