// Sign-in (docs/architecture.md, API contracts): email and password, then the MFA code when the account has MFA, or a new password
// when an administrator set one that must be changed. Each step answers like a login: the server sets the
// svc_session and svc_csrf cookies, and the app reloads who is signed in.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { OAuthButtons } from "./oauth.tsx";
import { useSubmit } from "./use-submit.ts";
import { useT } from "../i18n/use-t.ts";

type Step = { kind: "password" } | { kind: "mfa"; mfa_token: string } | { kind: "change"; change_token: string };

export function SignIn({ onDone, notice, mfaToken }: { onDone: () => void; notice?: string | undefined; mfaToken?: string | undefined }) {
  const t = useT();
  const [step, setStep] = useState<Step>(mfaToken ? { kind: "mfa", mfa_token: mfaToken } : { kind: "password" });
  const [form, setForm] = useState({ email: "", password: "", code: "", new_password: "", confirm: "" });
  const submit = useSubmit();
  const set = (k: keyof typeof form) => (value: string) => setForm({ ...form, [k]: value });

  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      if (step.kind === "password") {
        const answer = await ok(api.POST("/api/v1/auth/login", { body: { email: form.email, password: form.password } }));
        if ("requires_mfa" in answer) return setStep({ kind: "mfa", mfa_token: answer.mfa_token });
        if ("requires_change" in answer) return setStep({ kind: "change", change_token: answer.change_token });
      } else if (step.kind === "mfa") {
        await ok(api.POST("/api/v1/auth/mfa/verify", { body: { mfa_token: step.mfa_token, code: form.code.trim() } }));
      } else {
        if (form.new_password !== form.confirm) throw new Error(t("auth:passwordsDiffer"));
        await ok(
          api.POST("/api/v1/auth/force-change-password", { body: { change_token: step.change_token, new_password: form.new_password } }),
        );
      }
      onDone();
    });
  };

  const title = step.kind === "password" ? t("auth:signIn") : step.kind === "mfa" ? t("auth:mfa.title") : t("auth:change.title");
  return (
    <main class="auth-card" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">{title}</h1>
      <Notice kind="info">{notice}</Notice>
      <form onSubmit={send} noValidate>
        {step.kind === "password" && (
          <>
            <TextInput
              id="email"
              label={t("auth:email")}
              type="email"
              autoComplete="username"
              required
              value={form.email}
              error={submit.fields.email}
              onValue={set("email")}
            />
            <TextInput
              id="password"
              label={t("auth:password")}
              type="password"
              autoComplete="current-password"
              required
              value={form.password}
              error={submit.fields.password}
              onValue={set("password")}
            />
          </>
        )}
        {step.kind === "mfa" && (
          <TextInput
            id="mfa-code"
            label={t("auth:mfa.code")}
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            value={form.code}
            error={submit.fields.code}
            onValue={set("code")}
          />
        )}
        {step.kind === "change" && (
          <>
            <p>{t("auth:change.text")}</p>
            <TextInput
              id="new-password"
              label={t("auth:change.new")}
              type="password"
              autoComplete="new-password"
              required
              value={form.new_password}
              error={submit.fields.new_password}
              onValue={set("new_password")}
            />
            <TextInput
              id="confirm-password"
              label={t("auth:change.again")}
              type="password"
              autoComplete="new-password"
              required
              value={form.confirm}
              onValue={set("confirm")}
            />
          </>
        )}
        <Notice kind="error">{submit.error}</Notice>
        <button type="submit" class="primary" disabled={submit.busy}>
          {submit.busy ? t("auth:checking") : step.kind === "password" ? t("auth:signIn") : t("auth:continue")}
        </button>
        {step.kind === "password" && <OAuthButtons action="signIn" />}
        {step.kind !== "password" && (
          <button type="button" class="link" onClick={() => setStep({ kind: "password" })}>
            {t("auth:back")}
          </button>
        )}
      </form>
    </main>
  );
}
