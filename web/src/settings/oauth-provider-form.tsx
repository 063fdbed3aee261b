// One OAuth / OIDC provider's form (PATCH /settings/oauth with {providers: {name: {...}}}): a new one from
// a preset (OIDC by issuer, GitHub, Google, Microsoft), or an existing one edited in place. The client
// secret is write-only: shown as set or not set, kept when left empty, removed only by its checkbox. The
// API's 422 comes back at providers.<name>.<field>, shown on that field.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice, TextInput } from "../components/field.tsx";
import { i18nKey, t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

type OAuth = paths["/api/v1/settings/oauth"]["get"]["responses"][200]["content"]["application/json"];
export type Provider = OAuth["providers"][string];
export type ProviderType = Provider["type"];

/** The kinds offered for a new provider; the product names stay as they are, the generic one is translated. */
const PRESETS: ReadonlyArray<{ type: ProviderType; label: string; translated?: true; name: string }> = [
  { type: "oidc", label: i18nKey("settings:oauthForm.oidc"), translated: true, name: "" },
  { type: "github", label: "GitHub", name: "github" },
  { type: "google", label: "Google", name: "google" },
  { type: "microsoft", label: "Microsoft", name: "microsoft" },
];

/** A kind's name as shown, or the API's type for one the console does not know. */
export function presetLabel(type: ProviderType): string {
  const preset = PRESETS.find((p) => p.type === type);
  if (!preset) return type;
  return preset.translated ? t(preset.label) : preset.label;
}

/** The redirect URI the server sends for this provider (shared/verbs/oauth/flow.ts callbackUrl). */
export function callbackPath(name: string, type: ProviderType): string {
  // GitHub and Google have routes of their own named after them; the rest go through the OIDC slug.
  return `/api/v1/auth/oauth/${type === "github" || type === "google" ? name : `oidc/${name}`}/callback`;
}

interface Draft {
  name: string;
  type: ProviderType;
  label: string;
  clientId: string;
  secret: string;
  removeSecret: boolean;
  issuer: string;
  tenant: string;
  baseUrl: string;
  apiUrl: string;
  defaultRole: string;
  allowRegistration: boolean;
  enabled: boolean;
}

const draftOf = (name: string, p: Provider | undefined): Draft => ({
  name,
  type: p?.type ?? "oidc",
  label: p?.label ?? "",
  clientId: p?.client_id ?? "",
  secret: "",
  removeSecret: false,
  issuer: p?.issuer ?? "",
  tenant: p?.tenant ?? "",
  baseUrl: p?.base_url ?? "",
  apiUrl: p?.api_url ?? "",
  defaultRole: p?.default_role ?? "viewer",
  allowRegistration: p?.allow_registration ?? false,
  enabled: p?.enabled ?? false,
});

const orNull = (s: string) => s.trim() || null;

export function OAuthProviderForm({
  name,
  provider,
  roles,
  base,
  onSaved,
  onCancel,
}: {
  name?: string;
  provider?: Provider;
  roles: string[];
  base: string;
  onSaved: () => void;
  onCancel?: () => void;
}) {
  const t = useT();
  const editing = provider !== undefined;
  const [d, setD] = useState<Draft>(() => draftOf(name ?? "", provider));
  const save = useSubmit();
  const set = (patch: Partial<Draft>) => setD((old) => ({ ...old, ...patch }));
  const key = d.name.trim();
  const err = (field: string) => save.fields[`providers.${key}.${field}`];
  const prefix = editing ? `oauth-${key}` : "oauth-new";

  const choose = (type: ProviderType) => {
    const preset = PRESETS.find((p) => p.type === type)!;
    set({ type, name: preset.name || (PRESETS.some((p) => p.name === d.name) ? "" : d.name) });
  };

  const send = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      if (!key) throw new Error(t("settings:oauthForm.needName"));
      const body = {
        ...(editing ? {} : { type: d.type }),
        label: orNull(d.label),
        client_id: orNull(d.clientId),
        ...(d.removeSecret ? { client_secret: null } : d.secret ? { client_secret: d.secret } : {}),
        ...(d.type === "oidc" ? { issuer: orNull(d.issuer) } : {}),
        ...(d.type === "microsoft" ? { tenant: orNull(d.tenant) } : {}),
        ...(d.type === "github" ? { base_url: orNull(d.baseUrl), api_url: orNull(d.apiUrl) } : {}),
        default_role: d.defaultRole,
        allow_registration: d.allowRegistration,
        enabled: d.enabled,
      };
      await ok(api.PATCH("/api/v1/settings/oauth", { body: { providers: { [key]: body } } }));
      if (!editing) setD(draftOf("", undefined));
      onSaved();
    });
  };

  // GitHub and Google are reached by their own route, so their name is the preset's.
  const fixedName = editing || d.type === "github" || d.type === "google";
  return (
    <form class="card" onSubmit={send} noValidate aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`}>{editing ? t("settings:oauthForm.edit", { name: key }) : t("settings:oauthForm.new")}</h2>
      {!editing && (
        <Field id="oauth-new-type" label={t("settings:roles.kind")}>
          {(a11y) => (
            <select {...a11y} value={d.type} onChange={(e) => choose((e.currentTarget as HTMLSelectElement).value as ProviderType)}>
              {PRESETS.map((p) => (
                <option key={p.type} value={p.type}>
                  {presetLabel(p.type)}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {fixedName ? (
        <p class="meta">
          {t("settings:oauthForm.name")} <code>{key}</code>
        </p>
      ) : (
        <TextInput
          id="oauth-new-name"
          label={t("settings:name")}
          hint={t("settings:oauthForm.name.hint")}
          value={d.name}
          error={save.fields[`providers.${key}`]}
          onValue={(n) => set({ name: n })}
        />
      )}
      {key && (
        <p class="meta">
          {t("settings:oauthForm.callback")}{" "}
          <code data-testid={`${prefix}-callback`}>
            {base}
            {callbackPath(key, d.type)}
          </code>
        </p>
      )}
      <TextInput
        id={`${prefix}-label`}
        label={t("settings:oauthForm.label")}
        hint={t("settings:oauthForm.label.hint")}
        value={d.label}
        error={err("label")}
        onValue={(label) => set({ label })}
      />
      {d.type === "oidc" && (
        <TextInput
          id={`${prefix}-issuer`}
          label={t("settings:oauthForm.issuer")}
          // i18n-ignore: an example address
          placeholder="https://idp.example.com"
          hint={t("settings:oauthForm.issuer.hint")}
          value={d.issuer}
          error={err("issuer")}
          onValue={(issuer) => set({ issuer })}
        />
      )}
      {d.type === "microsoft" && (
        <TextInput
          id={`${prefix}-tenant`}
          label={t("settings:oauthForm.tenant")}
          // i18n-ignore: a value Microsoft's sign-in takes as it is
          placeholder="organizations"
          hint={t("settings:oauthForm.tenant.hint")}
          value={d.tenant}
          error={err("tenant")}
          onValue={(tenant) => set({ tenant })}
        />
      )}
      {d.type === "github" && (
        <>
          <TextInput
            id={`${prefix}-base-url`}
            label={t("settings:oauthForm.githubUrl")}
            // i18n-ignore: an address
            placeholder="https://github.com"
            value={d.baseUrl}
            error={err("base_url")}
            onValue={(baseUrl) => set({ baseUrl })}
          />
          <TextInput
            id={`${prefix}-api-url`}
            label={t("settings:oauthForm.githubApiUrl")}
            // i18n-ignore: an address
            placeholder="https://api.github.com"
            value={d.apiUrl}
            error={err("api_url")}
            onValue={(apiUrl) => set({ apiUrl })}
          />
        </>
      )}
      <TextInput
        id={`${prefix}-client-id`}
        label={t("settings:oauthForm.clientId")}
        autoComplete="off"
        value={d.clientId}
        error={err("client_id")}
        onValue={(clientId) => set({ clientId })}
      />
      <TextInput
        id={`${prefix}-secret`}
        label={t("settings:oauthForm.clientSecret")}
        type="password"
        autoComplete="new-password"
        hint={provider?.client_secret_set ? t("settings:secret.set") : t("settings:secret.notSet")}
        value={d.secret}
        error={err("client_secret")}
        onValue={(secret) => set({ secret, removeSecret: false })}
      />
      {provider?.client_secret_set && (
        <label class="check row">
          <input type="checkbox" checked={d.removeSecret} onChange={() => set({ removeSecret: !d.removeSecret, secret: "" })} />{" "}
          {t("settings:oauthForm.removeSecret")}
        </label>
      )}
      <Field id={`${prefix}-role`} label={t("settings:oauthForm.role")} error={err("default_role")}>
        {(a11y) => (
          <select {...a11y} value={d.defaultRole} onChange={(e) => set({ defaultRole: (e.currentTarget as HTMLSelectElement).value })}>
            {[...new Set([...roles, d.defaultRole])].map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        )}
      </Field>
      <label class="check row">
        <input type="checkbox" checked={d.allowRegistration} onChange={() => set({ allowRegistration: !d.allowRegistration })} />{" "}
        {t("settings:oauthForm.allowRegistration")}
      </label>
      <label class="check row">
        <input
          type="checkbox"
          checked={d.enabled}
          onChange={() => set({ enabled: !d.enabled })}
          aria-describedby={err("enabled") ? `${prefix}-enabled-error` : undefined}
        />{" "}
        {t("settings:oauthForm.enabled")}
      </label>
      {err("enabled") && (
        <small id={`${prefix}-enabled-error`} class="field-error" role="alert">
          {err("enabled")}
        </small>
      )}
      <Notice kind="error">{save.error}</Notice>
      <div class="actions">
        <button type="submit" class="primary" disabled={save.busy}>
          {editing ? t("settings:oauthForm.save") : t("settings:oauthForm.add")}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {t("common:cancel")}
          </button>
        )}
      </div>
    </form>
  );
}
