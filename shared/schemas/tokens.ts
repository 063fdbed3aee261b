// [auth] request and response shapes of API tokens, service accounts and the scope list (spec 5.1-5.2,
// /auth/api-token*, /auth/service-account, /auth/scopes). Roles are answered in the same shape by
// GET /settings/roles.
import * as v from "valibot";
import { MAX_TOKEN_DAYS } from "../verbs/tokens/expiry.ts";
import { PublicUser } from "./auth.ts";
import { RoleView, Scopes } from "./roles.ts";

const Expiry = {
  expires_at: v.optional(v.pipe(v.string(), v.isoTimestamp("expires_at must be an ISO 8601 date-time such as 2030-01-01T00:00:00Z."))),
  expires_in_days: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1, "expires_in_days must be at least 1."),
      v.maxValue(MAX_TOKEN_DAYS, `expires_in_days must be at most ${MAX_TOKEN_DAYS}.`),
    ),
  ),
};
const Name = (what: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(1, `${what} is required.`), v.maxLength(100, `${what} must be at most 100 characters.`));

export const ApiTokenCreate = v.object({ label: Name("label"), scopes: v.optional(Scopes), ...Expiry });
export const ServiceAccountCreate = v.object({
  name: Name("name"),
  role: v.optional(v.picklist(["viewer", "editor", "admin"], "role must be viewer, editor or admin.")),
  scopes: v.optional(Scopes),
  ...Expiry,
});
export const ApiTokensQuery = v.object({
  all: v.pipe(
    v.optional(v.picklist(["true", "false"], "all must be true or false."), "false"),
    v.transform((s) => s === "true"),
  ),
});
export const TokenId = v.object({
  token_id: v.pipe(v.string(), v.regex(/^\d{1,9}$/, "token_id must be a positive integer."), v.transform(Number)),
});

export const IssuedToken = v.object({
  id: v.number(),
  token: v.pipe(v.string(), v.description("The plaintext token: shown in this answer only.")),
  label: v.string(),
  scopes: v.array(v.string()),
  expires_at: v.nullable(v.string()),
  created_at: v.string(),
  prefix: v.string(),
});
export const TokenSummary = v.object({
  id: v.number(),
  user_id: v.number(),
  email: v.string(),
  label: v.string(),
  prefix: v.string(),
  scopes: v.array(v.string()),
  expires_at: v.nullable(v.string()),
  last_used_at: v.nullable(v.string()),
  revoked_at: v.nullable(v.string()),
  created_at: v.string(),
  expired: v.boolean(),
});
export const TokenSummaries = v.array(TokenSummary);
export const ServiceAccountCreated = v.object({ user: PublicUser, token: IssuedToken });
export const ScopeList = v.object({
  scopes: v.array(v.object({ scope: v.string(), description: v.string() })),
  narrower: v.string(),
  roles: v.array(RoleView),
});
