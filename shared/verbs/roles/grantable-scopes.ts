// Which scopes a token or a custom role may carry: the spec's grantable list (5.2), or a narrower
// `<verb>:<resource>` such as write:hardware. Anything else is a 422 naming the scope.
import { GRANTABLE_SCOPES, isGrantableScope } from "../../auth/scopes.ts";
import { ApiError } from "../../errors.ts";

const GRANTABLE_FORM = /^(read|write|delete|admin|\*):([a-z_]+|\*)$/;

export function isGrantableForm(scope: string): boolean {
  return isGrantableScope(scope) || GRANTABLE_FORM.test(scope);
}

/** 422 at `field` for the first scope that is not grantable; the list is answered de-duplicated. */
export function grantableScopes(scopes: readonly string[], field = "scopes"): string[] {
  scopes.forEach((scope, i) => {
    if (!isGrantableForm(scope))
      throw ApiError.validation([
        {
          loc: ["body", field, i],
          msg: `"${scope}" is not a grantable scope: use one of ${GRANTABLE_SCOPES.join(", ")} or a narrower <read|write|delete|admin>:<resource>.`,
          type: "scope",
        },
      ]);
  });
  return [...new Set(scopes)];
}
