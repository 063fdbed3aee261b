// API tokens and service accounts (docs/architecture.md, API contracts, spec 5.1-5.2): /auth/api-token,
// /auth/api-tokens[/{token_id}[/rotate]], /auth/service-account, /auth/scopes.
import type { Hono } from "hono";
import {
  ApiTokenCreate,
  ApiTokensQuery,
  IssuedToken,
  ScopeList,
  ServiceAccountCreate,
  ServiceAccountCreated,
  TokenId,
  TokenSummaries,
} from "../../../shared/schemas/tokens.ts";
import { Detail } from "../../../shared/schemas/auth.ts";
import { createApiToken } from "../../../shared/verbs/tokens/create-token.ts";
import { createServiceAccount } from "../../../shared/verbs/tokens/create-service-account.ts";
import { listApiTokens } from "../../../shared/verbs/tokens/list-tokens.ts";
import { listScopes } from "../../../shared/verbs/tokens/list-scopes.ts";
import { revokeApiToken } from "../../../shared/verbs/tokens/revoke-token.ts";
import { rotateApiToken } from "../../../shared/verbs/tokens/rotate-token.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function tokenRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/api-token",
      tag: "auth",
      summary: "Create an API token for yourself (scopes never wider than your own); the token is shown once",
      description:
        "Through an API token this needs write:tokens; the new token never expires later than that token (no expiry asked: it gets that token's) and is revoked with it.",
      body: ApiTokenCreate,
      response: { status: 201, schema: IssuedToken },
      errors: [409],
    },
    async (c, { body, reply }) => reply(await createApiToken({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/auth/api-tokens",
      tag: "auth",
      summary: "Your API tokens (administrators: ?all=true for everyone's); never the secret",
      query: ApiTokensQuery,
      response: { schema: TokenSummaries },
    },
    async (c, { query, reply }) => reply(await listApiTokens({ ctx: verbContext(c), input: { all: query.all } })),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/auth/api-tokens/:token_id",
      tag: "auth",
      summary: "Revoke an API token (yours; administrators: anyone's); it fails from the next request on",
      description: "Every token created through it (directly or not) is revoked in the same transaction.",
      params: TokenId,
      response: { schema: Detail },
    },
    async (c, { params, reply }) => reply(await revokeApiToken({ ctx: verbContext(c), input: { tokenId: params.token_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/api-tokens/:token_id/rotate",
      tag: "auth",
      summary: "Rotate an API token: new secret and prefix, same label, scopes and expiry; the old secret stops at once",
      description: "Through an API token this needs write:tokens, and the rotated token may not expire later than that token.",
      params: TokenId,
      response: { schema: IssuedToken },
      errors: [409],
    },
    async (c, { params, reply }) => reply(await rotateApiToken({ ctx: verbContext(c), input: { tokenId: params.token_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/auth/service-account",
      tag: "auth",
      scope: createServiceAccount.scope,
      summary: "Create a service account (a user that cannot sign in with a password) and its first API token",
      body: ServiceAccountCreate,
      response: { status: 201, schema: ServiceAccountCreated },
      errors: [409],
    },
    async (c, { body, reply }) => reply(await createServiceAccount({ ctx: verbContext(c), input: body })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/auth/scopes",
      tag: "auth",
      summary: "The grantable scopes with what each means, and the roles with their default scopes",
      response: { schema: ScopeList },
    },
    async (c, { reply }) => reply(await listScopes({ ctx: verbContext(c) })),
  );
}
