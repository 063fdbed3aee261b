// The answer of a delete that something still points at.
import { ApiError } from "../../errors.ts";

/** A 409 naming what still points at a row, the way every restricting delete answers. */
export function dependentsConflict(label: string, id: number, dependents: { type: string; id: number; name: string }[]): ApiError {
  const names = dependents
    .slice(0, 10)
    .map((d) => `${d.type} ${d.id} (${d.name})`)
    .join(", ");
  const more = dependents.length > 10 ? ` and ${dependents.length - 10} more` : "";
  return ApiError.conflict(`${label} ${id} cannot be deleted while these depend on it: ${names}${more}.`, { dependents });
}
