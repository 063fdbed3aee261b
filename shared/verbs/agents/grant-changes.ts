// Grant changes of a request (approve, PUT capabilities) applied over what is stored, or the 422 that
// names every refused capability or config key under body.capabilities.
import { applyGrantChanges, type Grant, type Grants } from "../../domain/agents/capabilities.ts";
import { ApiError } from "../../errors.ts";

export function grantsAfter(
  stored: Record<string, Partial<Grant> | undefined> | null | undefined,
  changes: Record<string, unknown>,
): Grants {
  const result = applyGrantChanges(stored, changes);
  if ("issues" in result)
    throw ApiError.validation(result.issues.map((i) => ({ loc: ["body", "capabilities", ...i.path], msg: i.message, type: "capability" })));
  return result.grants;
}

/** The names whose grant differs between two sets (for events and audit diffs). */
export function changedGrants(before: Grants, after: Grants): (keyof Grants)[] {
  return (Object.keys(after) as (keyof Grants)[]).filter((n) => JSON.stringify(before[n]) !== JSON.stringify(after[n]));
}
