// Provider accounts linked to a user (issue 16): the signed-in user links one explicitly (the answer is
// the provider's authorization URL; the callback binds the identity), lists and removes their own; an
// administrator lists and removes any user's.
import type { Hono } from "hono";
import { Detail } from "../../../shared/schemas/auth.ts";
import { AuthorizationUrl, Identities, ProviderParam } from "../../../shared/schemas/oauth.ts";
import { beginOAuthLink } from "../../../shared/verbs/oauth/flow.ts";
import { listMyIdentities, listUserIdentities, unlinkMyIdentity, unlinkUserIdentity } from "../../../shared/verbs/oauth/identities.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { oauthDeps } from "../auth/oauth-routes.ts";
import { setOAuthStateCookie } from "../../oauth-state-cookie.ts";

export function oauthIdentityRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: "/api/v1/account/oauth/:provider/link",
      tag: "oauth",
      summary: "Link a provider account to yours: answers the URL to send the browser to",
      description:
        "The provider's callback then binds that identity to you (409 when it is bound to another user) and redirects to `<public_url>/?oauth_linked=<provider>`. Needs your own signed-in session. Sets the svc_oauth_state cookie: the callback must come back to this browser.",
      params: ProviderParam,
      response: { schema: AuthorizationUrl },
      errors: [502],
    },
    async (c, { params, reply }) => {
      const { authorization_url, state } = await beginOAuthLink({ ctx: verbContext(c), input: { ...oauthDeps(c), name: params.provider } });
      setOAuthStateCookie(c, state);
      return reply({ authorization_url });
    },
  );
  route(
    app,
    {
      method: "get",
      path: "/api/v1/account/oauth-identities",
      tag: "oauth",
      summary: "The provider accounts linked to yours",
      response: { schema: Identities },
    },
    async (c, { reply }) => reply(await listMyIdentities({ ctx: verbContext(c), input: undefined })),
  );
  route(
    app,
    {
      method: "delete",
      path: "/api/v1/account/oauth-identities/:identity_id",
      tag: "oauth",
      summary: "Unlink one of your provider accounts",
      params: IdParam("identity_id"),
      response: { schema: Detail },
    },
    async (c, { params, reply }) => reply(await unlinkMyIdentity({ ctx: verbContext(c), input: { identityId: params.identity_id! } })),
  );
  route(
    app,
    {
      method: "get",
      path: "/api/v1/admin/users/:user_id/oauth-identities",
      tag: "oauth",
      scope: listUserIdentities.scope,
      summary: "A user's linked provider accounts",
      params: IdParam("user_id"),
      response: { schema: Identities },
    },
    async (c, { params, reply }) => reply(await listUserIdentities({ ctx: verbContext(c), input: { userId: params.user_id! } })),
  );
  route(
    app,
    {
      method: "delete",
      path: "/api/v1/admin/users/:user_id/oauth-identities/:identity_id",
      tag: "oauth",
      scope: unlinkUserIdentity.scope,
      summary: "Unlink a user's provider account",
      params: IdParam("user_id", "identity_id"),
      response: { schema: Detail },
    },
    async (c, { params, reply }) =>
      reply(await unlinkUserIdentity({ ctx: verbContext(c), input: { userId: params.user_id!, identityId: params.identity_id! } })),
  );
}
