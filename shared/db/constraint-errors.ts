// Maps PostgreSQL constraint violations to API errors, so a reference to a missing row is a 422 naming
// the field and a duplicate is a 409, whichever verb ran into it. Verbs that can say more (listing
// dependents) check first; this is the safety net.
import { ApiError } from "../errors.ts";

interface PgError {
  code?: string;
  detail?: string;
  constraint_name?: string;
  constraint?: string;
  table_name?: string;
  column_name?: string;
}

function pgError(err: unknown): PgError | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as PgError).code;
    if (typeof code === "string" && /^23[0-9A-Z]{3}$/.test(code)) return e as PgError;
  }
  return undefined;
}

export function constraintError(err: unknown): ApiError | undefined {
  const e = pgError(err);
  if (!e) return undefined;
  const detail = e.detail ?? "";
  const key = /Key \(([^)]+)\)=\(([^)]*)\)/.exec(detail);
  const column = key?.[1]?.replace(/^lower\(|\)$/g, "") ?? e.column_name ?? "value";
  const value = key?.[2] ?? "";
  switch (e.code) {
    case "23503": {
      const still = /is still referenced from table "([^"]+)"/.exec(detail);
      if (still) return new ApiError(409, "CONFLICT", `Still referenced by ${still[1]}: remove those first.`, { dependents: [{ type: still[1] }] });
      const table = /is not present in table "([^"]+)"/.exec(detail)?.[1] ?? "the referenced table";
      return ApiError.validation([{ loc: ["body", column], msg: `No ${table} with id ${value}.`, type: "foreign_key" }]);
    }
    case "23505":
      return new ApiError(409, "CONFLICT", `${column} "${value}" is already taken.`, { fields: { [column]: "already taken" } });
    case "23514":
    case "23502":
      return ApiError.validation([{ loc: ["body", column], msg: `The value breaks the rule ${e.constraint_name ?? e.constraint ?? e.code}.`, type: "constraint" }]);
    default:
      return undefined;
  }
}
