// Custom roles (spec 5.2) and the scope lists tokens and roles carry: the request shapes of
// /settings/roles and the role as GET /auth/scopes and GET /settings/roles answer it.
import * as v from "valibot";

/** A list of grantable scopes (tokens and custom roles; the verb checks each one). */
export const Scopes = v.pipe(
  v.array(v.pipe(v.string(), v.maxLength(100))),
  v.minLength(1, "Give at least one scope."),
  v.maxLength(50, "At most 50 scopes."),
);
/** A role as GET /auth/scopes and GET /settings/roles answer it (built-in ones have no id). */
export const RoleView = v.object({
  id: v.nullable(v.number()),
  name: v.string(),
  description: v.nullable(v.string()),
  scopes: v.array(v.string()),
  built_in: v.boolean(),
  created_at: v.nullable(v.string()),
  updated_at: v.nullable(v.string()),
});
export const RoleViews = v.array(RoleView);

const RoleName = v.pipe(
  v.string(),
  v.regex(/^[a-z][a-z0-9_-]{0,49}$/, "name must be a slug: a lower-case letter, then up to 49 lower-case letters, digits, - or _."),
);
const Description = v.nullish(v.pipe(v.string(), v.maxLength(500, "description must be at most 500 characters.")));

export const RoleIdParam = v.object({
  role_id: v.pipe(v.string(), v.regex(/^\d{1,9}$/, "role_id must be a positive integer."), v.transform(Number)),
});
export const RoleCreate = v.object({ name: RoleName, description: Description, scopes: Scopes });
/** PUT /settings/roles/{role_id}: any of the three, at least one. */
export const RoleUpdate = v.pipe(
  v.object({ name: v.optional(RoleName), description: Description, scopes: v.optional(Scopes) }),
  v.check(
    (b) => b.name !== undefined || b.description !== undefined || b.scopes !== undefined,
    "Send at least one of name, description, scopes.",
  ),
);
