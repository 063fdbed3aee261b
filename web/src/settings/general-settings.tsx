// The plain application settings (GET /settings, PUT /settings, which merges like a PATCH): one form
// grouped by area (general-settings-fields.ts), each input typed by its key's rule. Only the keys whose
// value changed are sent, so a save never rewrites what someone else changed meanwhile; the API's 422
// is shown on each field. Read-only for anyone but an administrator.
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice, TextInput } from "../components/field.tsx";
import { useLoad } from "../use-load.ts";
import { SETTING_GROUPS, type SettingField, type SettingsBody } from "./general-settings-fields.ts";
import { LoadError } from "./load-error.tsx";
import { useT } from "../i18n/use-t.ts";

type Stored = Record<string, unknown>;
/** The inputs' values: text as typed (numbers too, so a bad one reaches the server's rule), booleans as they are. */
type Draft = Record<string, string | boolean | Record<string, boolean>>;

const FIELDS = SETTING_GROUPS.flatMap((g) => g.fields);

function draftOf(s: Stored): Draft {
  const out: Draft = {};
  for (const f of FIELDS) {
    const value = s[f.key];
    if (f.kind === "boolean") out[f.key] = value === true;
    else if (f.kind === "flags") out[f.key] = { ...(value as Record<string, boolean>) };
    else if (f.kind === "lines") out[f.key] = Array.isArray(value) ? value.join("\n") : "";
    else out[f.key] = value == null ? "" : String(value);
  }
  return out;
}

/** The value the API takes for a field's input. */
function fieldValue(f: SettingField, input: Draft[string]): unknown {
  if (f.kind === "number") {
    const text = String(input).trim();
    // Not a number: sent as typed, so the server's rule names the field.
    return text !== "" && Number.isFinite(Number(text)) ? Number(text) : text;
  }
  if (f.kind === "lines")
    return String(input)
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
  if (f.kind === "text") return String(input).trim();
  return input;
}

export function GeneralSettingsSection() {
  const t = useT();
  const canEdit = useSession().can("admin:*");
  const settings = useLoad(() => ok(api.GET("/api/v1/settings")), []);
  const [d, setD] = useState<Draft | undefined>();
  useEffect(() => settings.data && setD(draftOf(settings.data)), [settings.data]);
  const save = useSubmit();
  const [saved, setSaved] = useState<string | undefined>();
  const set = (key: string, value: Draft[string]) => setD((old) => (old ? { ...old, [key]: value } : old));

  const send = (e: Event) => {
    e.preventDefault();
    if (!d || !settings.data) return;
    setSaved(undefined);
    const stored = settings.data;
    const changed = Object.fromEntries(
      FIELDS.map((f) => [f.key, fieldValue(f, d[f.key]!)] as const).filter(
        ([k, value]) => JSON.stringify(value) !== JSON.stringify(stored[k]),
      ),
    );
    const keys = Object.keys(changed);
    if (keys.length === 0) {
      setSaved(t("settings:general.nothingChanged"));
      return;
    }
    void save.run(async () => {
      await ok(api.PUT("/api/v1/settings", { body: changed as SettingsBody }));
      setSaved(t("settings:general.saved", { keys: keys.join(", ") }));
      settings.reload();
    });
  };

  if (settings.error !== undefined) return <LoadError error={settings.error} what={t("settings:general.what")} />;
  if (!settings.data || !d) return <p aria-busy="true">{t("common:loading")}</p>;
  return (
    <form class="card general-settings" onSubmit={send} noValidate aria-labelledby="general-title">
      <h2 id="general-title">{t("settings:general.title")}</h2>
      {!canEdit && (
        <p class="meta">
          <span class="badge">{t("settings:readOnly")}</span> {t("settings:general.adminOnly")}
        </p>
      )}
      <fieldset class="plain" disabled={!canEdit}>
        {SETTING_GROUPS.map((g) => (
          <fieldset key={g.id} class="settings-group">
            <legend>{t(g.title)}</legend>
            {g.fields.map((f) => (
              <SettingInput key={f.key} field={f} value={d[f.key]!} error={save.fields[f.key]} onValue={(v) => set(f.key, v)} />
            ))}
          </fieldset>
        ))}
      </fieldset>
      <Notice kind="error">{save.error}</Notice>
      <Notice kind="success">{saved}</Notice>
      {canEdit && (
        <button type="submit" class="primary" disabled={save.busy}>
          {t("settings:general.save")}
        </button>
      )}
    </form>
  );
}

function SettingInput({
  field: f,
  value,
  error,
  onValue,
}: {
  field: SettingField;
  value: Draft[string];
  error: string | undefined;
  onValue: (v: Draft[string]) => void;
}) {
  const t = useT();
  const id = `setting-${f.key}`;
  const ownHint = f.hint === undefined ? undefined : t(f.hint);
  const hint =
    f.kind === "number" ? [t("settings:general.range", { min: f.min, max: f.max }), ownHint].filter(Boolean).join("; ") : ownHint;
  if (f.kind === "boolean")
    return (
      <div class={`field${error ? " field-invalid" : ""}`}>
        <label class="check row">
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={() => onValue(value !== true)}
          />{" "}
          {t(f.label)}
        </label>
        {error && (
          <small id={`${id}-error`} class="field-error" role="alert">
            {error}
          </small>
        )}
      </div>
    );
  if (f.kind === "flags") {
    const flags = value as Record<string, boolean>;
    return (
      <fieldset
        class="plain"
        aria-describedby={[error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined}
      >
        <legend class="meta">{t(f.label)}</legend>
        {f.flags.map((x) => (
          <label key={x.flag} class="check row">
            <input type="checkbox" checked={flags[x.flag] === true} onChange={() => onValue({ ...flags, [x.flag]: !flags[x.flag] })} />{" "}
            {t(x.label)}
          </label>
        ))}
        {hint && (
          <small id={`${id}-hint`} class="hint">
            {hint}
          </small>
        )}
        {error && (
          <small id={`${id}-error`} class="field-error" role="alert">
            {error}
          </small>
        )}
      </fieldset>
    );
  }
  if (f.kind === "enum")
    return (
      <Field id={id} label={t(f.label)} error={error} {...(hint ? { hint } : {})}>
        {(a11y) => (
          <select {...a11y} value={String(value)} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value)}>
            {f.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        )}
      </Field>
    );
  if (f.kind === "lines")
    return (
      <Field id={id} label={t(f.label)} error={error} {...(hint ? { hint } : {})}>
        {(a11y) => (
          <textarea {...a11y} rows={3} value={String(value)} onInput={(e) => onValue((e.currentTarget as HTMLTextAreaElement).value)} />
        )}
      </Field>
    );
  return (
    <TextInput
      id={id}
      label={t(f.label)}
      value={String(value)}
      error={error}
      {...(hint ? { hint } : {})}
      {...(f.kind === "number" ? { inputMode: "numeric" as const } : {})}
      {...(f.kind === "text" && f.placeholder ? { placeholder: f.placeholder } : {})}
      onValue={onValue}
    />
  );
}
