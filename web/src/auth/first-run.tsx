// First run (docs/architecture.md, API contracts, spec 5.4): the setup token from SVC_SETUP_TOKEN (or the one the first start
// logged) and the first administrator, through POST /bootstrap/initialize, which also signs them in.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { initializeThroughProvider, OAuthButtons } from "./oauth.tsx";
import { useSubmit } from "./use-submit.ts";
import { useT } from "../i18n/use-t.ts";

export function FirstRun({
  onDone,
  providerCode,
  provider,
}: {
  onDone: () => void;
  providerCode?: string | undefined;
  provider?: string | undefined;
}) {
  const t = useT();
  const [form, setForm] = useState({ setup_token: "", email: "", display_name: "", password: "" });
  const submit = useSubmit();
  const set = (k: keyof typeof form) => (value: string) => setForm({ ...form, [k]: value });
  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      if (providerCode) {
        await initializeThroughProvider(providerCode, form.setup_token);
        return onDone();
      }
      const body = { ...form, ...(form.display_name ? {} : { display_name: undefined }) };
      await ok(api.POST("/api/v1/bootstrap/initialize", { body }));
      onDone();
    });
  };
  return (
    <main class="auth-card" aria-labelledby="first-run-title">
      <h1 id="first-run-title">{t("auth:firstRun.title")}</h1>
      <p>
        {providerCode ? t("auth:firstRun.viaProvider", { provider: provider ?? t("auth:firstRun.provider") }) : t("auth:firstRun.create")}
        {t("auth:firstRun.token")}
      </p>
      <form onSubmit={send} noValidate>
        <TextInput
          id="setup-token"
          label={t("auth:firstRun.setupToken")}
          type="password"
          autoComplete="off"
          required
          value={form.setup_token}
          error={submit.fields.setup_token}
          onValue={set("setup_token")}
        />
        {!providerCode && (
          <>
            <TextInput
              id="admin-email"
              label={t("auth:email")}
              type="email"
              autoComplete="username"
              required
              value={form.email}
              error={submit.fields.email}
              onValue={set("email")}
            />
            <TextInput
              id="admin-name"
              label={t("auth:firstRun.displayName")}
              autoComplete="name"
              value={form.display_name}
              error={submit.fields.display_name}
              onValue={set("display_name")}
            />
            <TextInput
              id="admin-password"
              label={t("auth:password")}
              type="password"
              autoComplete="new-password"
              required
              value={form.password}
              error={submit.fields.password}
              onValue={set("password")}
              hint={t("auth:firstRun.passwordHint")}
            />
          </>
        )}
        {/* A field's message (a short password) is shown at its field, not a second time here. */}
        <Notice kind="error">{submit.errorBesides(Object.keys(form))}</Notice>
        <button type="submit" class="primary" disabled={submit.busy}>
          {submit.busy ? t("auth:firstRun.creating") : t("auth:firstRun.submit")}
        </button>
        {!providerCode && <OAuthButtons action="setUp" />}
      </form>
    </main>
  );
}
