// Sign-in through an OAuth / OIDC provider (docs/oauth.md): the buttons are plain links to the start
// route (a full-page redirect to the provider); the callback comes back to / with `cb_auth_code` (the
// session cookies are already set), `cb_mfa_token` (the MFA step), or to /oobe with `bootstrap=1` before
// first run, when the provider's account becomes the administrator with the setup token.
import { api, ok } from "../api/client.ts";
import { useLoad } from "../use-load.ts";
import { useT } from "../i18n/use-t.ts";

export interface Callback {
  mfaToken?: string;
  bootstrapCode?: string;
  provider?: string;
}

/** Reads and removes the callback's parameters from the address bar (a reload must not replay them). */
export function takeOAuthCallback(): Callback {
  const url = new URL(location.href);
  const q = url.searchParams;
  const out: Callback = {};
  const code = q.get("cb_auth_code");
  if (code && q.get("bootstrap") === "1") out.bootstrapCode = code;
  const mfa = q.get("cb_mfa_token");
  if (mfa) out.mfaToken = mfa;
  const provider = q.get("provider");
  if (provider) out.provider = provider;
  if (!code && !mfa) return out;
  for (const k of ["cb_auth_code", "cb_mfa_token", "bootstrap", "provider"]) q.delete(k);
  history.replaceState(null, "", url.pathname === "/oobe" ? `/${url.search}` : `${url.pathname}${url.search}`);
  return out;
}

/** "Sign in with GitHub" on the sign-in screen, "Set up with GitHub" on the first run. */
export function OAuthButtons({ action }: { action: "signIn" | "setUp" }) {
  const t = useT();
  const providers = useLoad(() => ok(api.GET("/api/v1/auth/oauth/providers")), []);
  const list = providers.data?.providers ?? [];
  if (list.length === 0) return null;
  return (
    <div class="oauth">
      <p class="meta">{t("auth:oauth.or")}</p>
      {list.map((p) => (
        <a
          key={p.name}
          class="button"
          href={
            p.type === "oidc" ? `/api/v1/auth/oauth/oidc/${encodeURIComponent(p.name)}` : `/api/v1/auth/oauth/${encodeURIComponent(p.name)}`
          }
        >
          {action === "signIn" ? t("auth:oauth.signIn", { provider: p.label }) : t("auth:oauth.setUp", { provider: p.label })}
        </a>
      ))}
    </div>
  );
}

/** First run through a provider: its one-time code becomes a token the setup token turns into the administrator. */
export async function initializeThroughProvider(code: string, setupToken: string): Promise<void> {
  const { token } = await ok(api.GET("/api/v1/auth/exchange", { params: { query: { code } } }));
  await ok(api.POST("/api/v1/bootstrap/initialize-oauth", { body: { oauth_token: token, setup_token: setupToken } }));
}
