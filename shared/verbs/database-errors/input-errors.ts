// Maps PostgreSQL's verdicts on the values a request brought to API errors: constraint violations (class
// 23: a reference to a missing row is a 422 naming the field, a duplicate a 409) and data exceptions
// (class 22: a number past its column's range, text the database cannot store, a malformed value), so
// bad input is a 4xx whichever verb ran into it. Request validation refuses such values first (shared/
// schemas, functions/openapi/route.ts); this is the last line of defence.
import { ApiError } from "../../errors.ts";

interface PgError {
  code?: string;
  detail?: string;
  constraint_name?: string;
  constraint?: string;
  table_name?: string;
  column_name?: string;
}

function pgError(err: unknown, sqlstateClass: RegExp): PgError | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as PgError).code;
    if (typeof code === "string" && sqlstateClass.test(code)) return e as PgError;
  }
  return undefined;
}

/** What a data exception (SQLSTATE class 22) says about the value; never the value itself. */
const DATA_EXCEPTIONS: Record<string, string> = {
  "22003": "A number is outside the range its field can hold.",
  "22P02": "A value is not in the form its field needs.",
  "22001": "A text is longer than its field can hold.",
  "22021": "A text contains a character the database cannot store.",
  "22P05": "A text contains a character the database cannot store (NUL or an unpaired surrogate).",
  "22007": "A date or time is not valid.",
  "22008": "A date or time is outside the range the database can hold.",
  "22012": "A value leads to a division by zero.",
};

function dataError(e: PgError): ApiError {
  const column = e.column_name;
  const msg = DATA_EXCEPTIONS[e.code!] ?? "A value is not valid for its field.";
  return ApiError.validation([{ loc: column ? ["body", column] : ["body"], msg, type: "data_exception" }]);
}

/** The API error for a database error caused by the request's values, or undefined for any other. */
export function inputError(err: unknown): ApiError | undefined {
  const data = pgError(err, /^22[0-9A-Z]{3}$/);
  if (data) return dataError(data);
  const e = pgError(err, /^23[0-9A-Z]{3}$/);
  if (!e) return undefined;
  const detail = e.detail ?? "";
  const key = /Key \(([^)]+)\)=\(([^)]*)\)/.exec(detail);
  const column = key?.[1]?.replace(/^lower\(|\)$/g, "") ?? e.column_name ?? "value";
  const value = key?.[2] ?? "";
  switch (e.code) {
    case "23503": {
      const still = /is still referenced from table "([^"]+)"/.exec(detail);
      if (still) return ApiError.conflict(`Still referenced by ${still[1]}: remove those first.`, { dependents: [{ type: still[1] }] });
      const table = /is not present in table "([^"]+)"/.exec(detail)?.[1] ?? "the referenced table";
      return ApiError.validation([{ loc: ["body", column], msg: `No ${table} with id ${value}.`, type: "foreign_key" }]);
    }
    case "23505":
      return ApiError.conflict(`${column} "${value}" is already taken.`, { fields: { [column]: "already taken" } });
    case "23514":
    case "23502":
      return ApiError.validation([
        { loc: ["body", column], msg: `The value breaks the rule ${e.constraint_name ?? e.constraint ?? e.code}.`, type: "constraint" },
      ]);
    default:
      return undefined;
  }
}
