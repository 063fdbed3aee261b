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
  /** The screen the provider sign-in started from (the callback always comes back to /). */
  returnTo?: string;
}

// Per tab, so another tab's sign-in never sends this one anywhere; as long as a provider sign-in may
// take (the server's state lives 10 minutes), so an abandoned one is not followed later.
const RETURN_KEY = "svc_sign_in_from";
const RETURN_TTL_MS = 10 * 60_000;

/** Remembers the screen a provider sign-in starts from (an approval page of `lab login --browser`). */
function rememberScreen(): void {
  if (location.pathname === "/") sessionStorage.removeItem(RETURN_KEY);
  else sessionStorage.setItem(RETURN_KEY, JSON.stringify({ path: `${location.pathname}${location.search}`, at: Date.now() }));
}

/** The remembered screen, once: only a recent one, and only a path of this origin ("/x", never "//host" or "/\\host"). */
function takeRememberedScreen(): string | undefined {
  const stored = sessionStorage.getItem(RETURN_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  try {
    const { path, at } = JSON.parse(stored ?? "null") as { path?: unknown; at?: unknown };
    const recent = typeof at === "number" && Date.now() - at < RETURN_TTL_MS;
    return recent && typeof path === "string" && /^\/(?![/\\])/.test(path) ? path : undefined;
  } catch {
    return undefined;
  }
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
  const returnTo = out.bootstrapCode ? undefined : takeRememberedScreen();
  if (returnTo) out.returnTo = returnTo;
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
          onClick={action === "signIn" ? rememberScreen : undefined}
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
