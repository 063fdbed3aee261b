// [oauth] request and response shapes of signing in through a provider and of linked provider accounts
// (issue 16, docs/oauth.md). The start and callback routes answer redirects, so they have no body shape.
import * as v from "valibot";

const ProviderName = (message: string) => v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_-]{0,31}$/, message));

export const SlugParam = v.object({ slug: ProviderName("Unknown provider slug.") });
export const ProviderParam = v.object({ provider: ProviderName("Unknown provider.") });
export const StartQuery = v.object({ invite_token: v.optional(v.pipe(v.string(), v.maxLength(512))) });
export const CallbackQuery = v.object({
  code: v.pipe(v.string("The provider sent no code."), v.minLength(1, "The provider sent no code."), v.maxLength(2048)),
  state: v.pipe(v.string("The provider sent no state."), v.minLength(1, "The provider sent no state."), v.maxLength(512)),
});
export const ExchangeQuery = v.object({
  code: v.pipe(v.string("The code is required."), v.minLength(1, "The code is required."), v.maxLength(256)),
});

export const PublicProviders = v.object({
  providers: v.array(v.object({ name: v.string(), type: v.picklist(["oauth", "oidc"]), label: v.string() })),
});
export const ExchangedToken = v.object({ token: v.string() });
export const AuthorizationUrl = v.object({ authorization_url: v.string() });

export const Identity = v.object({
  id: v.number(),
  provider: v.string(),
  issuer: v.string(),
  subject: v.string(),
  email: v.nullable(v.string()),
  created_at: v.string(),
  last_login_at: v.nullable(v.string()),
});
export const Identities = v.array(Identity);
