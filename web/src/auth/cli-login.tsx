// The approval page of `lab login --browser` (docs/cli.md, docs/adr/0504): the CLI opened /cli-login with
// its authorization request in the query (who asks, its loopback redirect URI, state and PKCE challenge).
// The signed-in user (the sign-in screen comes first when nobody is, and this path stays) sees who asks
// and where the token goes, picks the token's label, expiry and scopes (none ticked: their own), and
// approves or denies; either way the server answers where to send the browser: back to the CLI.
import { useState } from "preact/hooks";
import { loopbackRedirectProblem } from "../../../shared/auth/loopback-redirect.ts";
import { api, ok } from "../api/client.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";
import type { Location } from "../router.tsx";
import { ScopeChoices } from "../settings/scope-choices.tsx";
import { useSession } from "./session.tsx";
import { useSubmit } from "./use-submit.ts";

interface CliRequest {
  redirect_uri: string;
  state: string;
  client_name: string;
  code_challenge: string;
}

/** The request in the query, or undefined when it is incomplete or would not return to this computer. */
function requestOf(query: URLSearchParams): CliRequest | undefined {
  const [redirect_uri, state, client_name, code_challenge] = ["redirect_uri", "state", "client_name", "code_challenge"].map(
    (k) => query.get(k) ?? "",
  ) as [string, string, string, string];
  if (!redirect_uri || !state || !client_name || !code_challenge || query.get("code_challenge_method") !== "S256") return undefined;
  if (loopbackRedirectProblem(redirect_uri)) return undefined;
  return { redirect_uri, state, client_name, code_challenge };
}

export function CliLoginPage({ loc }: { loc: Location }) {
  const t = useT();
  const session = useSession();
  const request = requestOf(loc.query);
  const [label, setLabel] = useState(loc.query.get("label") ?? "");
  const [days, setDays] = useState("90");
  const [scopes, setScopes] = useState<string[]>([]);
  const [done, setDone] = useState<"approved" | "denied" | undefined>();
  const submit = useSubmit();

  if (!request)
    return (
      <section class="card" aria-labelledby="cli-login-title">
        <h1 id="cli-login-title">{t("cli-login:title")}</h1>
        <Notice kind="error">{t("cli-login:invalid")}</Notice>
      </section>
    );

  const back = (decision: "approved" | "denied", to: string) => {
    setDone(decision);
    location.assign(to);
  };
  const approve = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      const expires = days.trim() === "" ? {} : { expires_in_days: Number(days) };
      const body = {
        ...request,
        code_challenge_method: "S256" as const,
        label: label.trim(),
        ...expires,
        ...(scopes.length ? { scopes } : {}),
      };
      back("approved", (await ok(api.POST("/api/v1/auth/cli-login/approve", { body }))).redirect_to);
    });
  };
  const deny = () =>
    void submit.run(async () => {
      const { redirect_uri, state, client_name } = request;
      back("denied", (await ok(api.POST("/api/v1/auth/cli-login/deny", { body: { redirect_uri, state, client_name } }))).redirect_to);
    });

  return (
    <form class="card" onSubmit={approve} noValidate aria-labelledby="cli-login-title">
      <h1 id="cli-login-title">{t("cli-login:title")}</h1>
      <p>{t("cli-login:asks", { client: request.client_name, email: session.user.email })}</p>
      <p>{t("cli-login:listener", { listener: new URL(request.redirect_uri).host })}</p>
      <Notice kind="info">{t("cli-login:warning")}</Notice>
      <TextInput
        id="cli-login-label"
        label={t("settings:tokens.label")}
        value={label}
        error={submit.fields.label}
        onValue={setLabel}
        autoComplete="off"
      />
      <TextInput
        id="cli-login-days"
        label={t("settings:tokens.days")}
        inputMode="numeric"
        value={days}
        error={submit.fields.expires_in_days}
        hint={t("settings:tokens.days.hint")}
        onValue={setDays}
      />
      <ScopeChoices scopes={scopes} onChange={setScopes} error={submit.fields.scopes} />
      <p class="meta">{t("cli-login:yourScopes", { scopes: session.user.scopes.join(" ") })}</p>
      <Notice kind="error">{submit.errorBesides(["label", "expires_in_days", "scopes"])}</Notice>
      <Notice kind="success">
        {done === "approved" ? t("cli-login:approved") : done === "denied" ? t("cli-login:denied") : undefined}
      </Notice>
      <div class="actions">
        <button type="submit" class="primary" disabled={submit.busy || done !== undefined}>
          {t("cli-login:approve")}
        </button>
        <button type="button" class="danger" disabled={submit.busy || done !== undefined} onClick={deny}>
          {t("cli-login:deny")}
        </button>
      </div>
    </form>
  );
}
