// `?target_ids=1&target_ids=2` or `?target_ids=1,2`: the route helper parses one value per parameter, so
// the list is read here. Absent -> null (every target of the type); present but empty -> [].
import type { Context } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import { MAX_INT4 } from "../../../shared/schemas/fields.ts";
import { MAX_TARGET_IDS } from "../../../shared/schemas/monitors.ts";

export function targetIds(c: Context): number[] | null {
  const values = c.req.queries("target_ids");
  if (values === undefined) return null;
  const parts = values
    .flatMap((v) => v.split(","))
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const bad = parts.find((p) => !/^\d{1,10}$/.test(p) || Number(p) < 1 || Number(p) > MAX_INT4);
  if (bad !== undefined)
    throw ApiError.validation([{ loc: ["query", "target_ids"], msg: `"${bad.slice(0, 20)}" is not a target id.`, type: "value_error" }]);
  if (parts.length > MAX_TARGET_IDS)
    throw ApiError.validation([{ loc: ["query", "target_ids"], msg: `At most ${MAX_TARGET_IDS} ids.`, type: "too_long" }]);
  return [...new Set(parts.map(Number))];
}
