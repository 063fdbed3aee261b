// `?ids=1&ids=2` or `?ids=1,2`: the route helper parses one value per parameter, so the lists of agent
// ids are read here. Absent -> undefined (every agent); present but empty -> [].
import type { Context } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import { MAX_INT4 } from "../../../shared/schemas/fields.ts";
import { MAX_IDS } from "../../../shared/schemas/agents.ts";

export function agentIds(c: Context): number[] | undefined {
  const values = c.req.queries("ids");
  if (values === undefined) return undefined;
  const parts = values
    .flatMap((v) => v.split(","))
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const bad = parts.find((p) => !/^\d{1,10}$/.test(p) || Number(p) < 1 || Number(p) > MAX_INT4);
  if (bad !== undefined)
    throw ApiError.validation([{ loc: ["query", "ids"], msg: `"${bad.slice(0, 20)}" is not an agent id.`, type: "value_error" }]);
  if (parts.length > MAX_IDS) throw ApiError.validation([{ loc: ["query", "ids"], msg: `At most ${MAX_IDS} ids.`, type: "too_long" }]);
  return [...new Set(parts.map(Number))];
}
