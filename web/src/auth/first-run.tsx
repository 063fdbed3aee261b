// First run (docs/architecture.md, API contracts, spec 5.4): the setup token from SVC_SETUP_TOKEN (or the one the first start
// logged) and the first administrator, through POST /bootstrap/initialize, which also signs them in.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { initializeThroughProvider, OAuthButtons } from "./oauth.tsx";
import { useSubmit } from "./use-submit.ts";

export function FirstRun({
  onDone,
  providerCode,
  provider,
}: {
  onDone: () => void;
  providerCode?: string | undefined;
  provider?: string | undefined;
}) {
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
      <h1 id="first-run-title">Set up the control plane</h1>
      <p>
        {providerCode ? `Your ${provider ?? "provider"} account becomes the administrator. ` : "Create the first administrator. "}
        The setup token is SVC_SETUP_TOKEN, or the one the first start wrote to its log.
      </p>
      <form onSubmit={send} noValidate>
        <TextInput
          id="setup-token"
          label="Setup token"
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
              label="Email"
              type="email"
              autoComplete="username"
              required
              value={form.email}
              error={submit.fields.email}
              onValue={set("email")}
            />
            <TextInput
              id="admin-name"
              label="Display name (optional)"
              autoComplete="name"
              value={form.display_name}
              error={submit.fields.display_name}
              onValue={set("display_name")}
            />
            <TextInput
              id="admin-password"
              label="Password"
              type="password"
              autoComplete="new-password"
              required
              value={form.password}
              error={submit.fields.password}
              onValue={set("password")}
              hint="At least 12 characters; a passphrase is fine."
            />
          </>
        )}
        {/* A field's message (a short password) is shown at its field, not a second time here. */}
        <Notice kind="error">{submit.errorBesides(Object.keys(form))}</Notice>
        <button type="submit" class="primary" disabled={submit.busy}>
          {submit.busy ? "Creating…" : "Create administrator"}
        </button>
        {!providerCode && <OAuthButtons verb="Set up" />}
      </form>
    </main>
  );
}
