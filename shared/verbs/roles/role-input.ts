// Checks shared by creating and changing a custom role: the name is not a built-in one, the scopes are
// grantable and no wider than the administrator's own credential, and the name is unique.
import { isBuiltInRole } from "../../auth/scopes.ts";
import { ApiError } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";
import { requireWithinGrant } from "../tokens/grant.ts";
import { isUniqueViolation } from "../tokens/unique-violation.ts";
import { grantableScopes } from "./grantable-scopes.ts";

export function checkRoleName(name: string): string {
  if (isBuiltInRole(name))
    throw ApiError.validation([{ loc: ["body", "name"], msg: `"${name}" is a built-in role; choose another name.`, type: "value_error" }]);
  return name;
}

export function checkRoleScopes(ctx: VerbContext, scopes: string[]): string[] {
  const checked = grantableScopes(scopes);
  requireWithinGrant(ctx.actor!, checked);
  return checked;
}

/** Turns the unique-name violation of a racing writer into the same 409 as the pre-check. */
export function nameTaken(name: string): (e: unknown) => never {
  return (e) => {
    if (isUniqueViolation(e, "custom_roles_name_unique")) throw ApiError.conflict(`A role named ${name} already exists.`);
    throw e;
  };
}
