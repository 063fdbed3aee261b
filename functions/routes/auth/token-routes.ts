// API tokens and service accounts (docs/architecture.md, API contracts, spec 5.1-5.2): /auth/api-token,
// /auth/api-tokens[/{token_id}[/rotate]], /auth/service-account, /auth/scopes.
import type { Hono } from "hono";
import * as v from "valibot";
import { RoleView, Scopes } from "../../../shared/schemas/roles.ts";
import { MAX_TOKEN_DAYS } from "../../../shared/verbs/tokens/expiry.ts";
import { createApiToken } from "../../../shared/verbs/tokens/create-token.ts";
import { createServiceAccount } from "../../../shared/verbs/tokens/create-service-account.ts";
import { listApiTokens } from "../../../shared/verbs/tokens/list-tokens.ts";
import { listScopes } from "../../../shared/verbs/tokens/list-scopes.ts";
import { revokeApiToken } from "../../../shared/verbs/tokens/revoke-token.ts";
import { rotateApiToken } from "../../../shared/verbs/tokens/rotate-token.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { PublicUser } from "./schemas.ts";

const Expiry = {
  expires_at: v.optional(v.pipe(v.string(), v.isoTimestamp("expires_at must be an ISO 8601 date-time such as 2030-01-01T00:00:00Z."))),
  expires_in_days: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1, "expires_in_days must be at least 1."), v.maxValue(MAX_TOKEN_DAYS, `expires_in_days must be at most ${MAX_TOKEN_DAYS}.`)),
  ),
};
const Name = (what: string) => v.pipe(v.string(), v.trim(), v.minLength(1, `${what} is required.`), v.maxLength(100, `${what} must be at most 100 characters.`));

const IssuedToken = v.object({
  id: v.number(),
  token: v.pipe(v.string(), v.description("The plaintext token: shown in this answer only.")),
  label: v.string(),
  scopes: v.array(v.string()),
  expires_at: v.nullable(v.string()),
  created_at: v.string(),
  prefix: v.string(),
});
const TokenSummary = v.object({
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
const TokenId = v.object({
  token_id: v.pipe(v.string(), v.regex(/^\d{1,9}$/, "token_id must be a positive integer."), v.transform(Number)),
});

export function tokenRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post", path: "/api/v1/auth/api-token", tag: "auth",
      summary: "Create an API token for yourself (scopes never wider than your own); the token is shown once",
      description: "Through an API token this needs write:tokens; the new token never expires later than that token (no expiry asked: it gets that token's) and is revoked with it.",
      body: v.object({ label: Name("label"), scopes: v.optional(Scopes), ...Expiry }),
      response: { status: 201, schema: IssuedToken }, errors: [409],
    },
    async (c, { body }) => c.json(await createApiToken({ ctx: verbContext(c), input: body }), 201),
  );

  route(
    app,
    {
      method: "get", path: "/api/v1/auth/api-tokens", tag: "auth",
      summary: "Your API tokens (administrators: ?all=true for everyone's); never the secret",
      query: v.object({ all: v.pipe(v.optional(v.picklist(["true", "false"], "all must be true or false."), "false"), v.transform((s) => s === "true")) }),
      response: { schema: v.array(TokenSummary) },
    },
    async (c, { query }) => c.json(await listApiTokens({ ctx: verbContext(c), input: { all: query.all } })),
  );

  route(
    app,
    {
      method: "delete", path: "/api/v1/auth/api-tokens/:token_id", tag: "auth",
      summary: "Revoke an API token (yours; administrators: anyone's); it fails from the next request on",
      description: "Every token created through it (directly or not) is revoked in the same transaction.",
      params: TokenId, response: { schema: v.object({ detail: v.string() }) },
    },
    async (c, { params }) => c.json(await revokeApiToken({ ctx: verbContext(c), input: { tokenId: params.token_id } })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/auth/api-tokens/:token_id/rotate", tag: "auth",
      summary: "Rotate an API token: new secret and prefix, same label, scopes and expiry; the old secret stops at once",
      description: "Through an API token this needs write:tokens, and the rotated token may not expire later than that token.",
      params: TokenId, response: { schema: IssuedToken }, errors: [409],
    },
    async (c, { params }) => c.json(await rotateApiToken({ ctx: verbContext(c), input: { tokenId: params.token_id } })),
  );

  route(
    app,
    {
      method: "post", path: "/api/v1/auth/service-account", tag: "auth", scope: createServiceAccount.scope,
      summary: "Create a service account (a user that cannot sign in with a password) and its first API token",
      body: v.object({
        name: Name("name"),
        role: v.optional(v.picklist(["viewer", "editor", "admin"], "role must be viewer, editor or admin.")),
        scopes: v.optional(Scopes),
        ...Expiry,
      }),
      response: { status: 201, schema: v.object({ user: PublicUser, token: IssuedToken }) }, errors: [409],
    },
    async (c, { body }) => c.json(await createServiceAccount({ ctx: verbContext(c), input: body }), 201),
  );

  route(
    app,
    {
      method: "get", path: "/api/v1/auth/scopes", tag: "auth",
      summary: "The grantable scopes with what each means, and the roles with their default scopes",
      response: {
        schema: v.object({ scopes: v.array(v.object({ scope: v.string(), description: v.string() })), narrower: v.string(), roles: v.array(RoleView) }),
      },
    },
    async (c) => c.json(await listScopes({ ctx: verbContext(c) })),
  );
}
