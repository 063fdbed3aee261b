// A notification sink, new or changed in place: its provider type, then one input per key that provider
// takes (from the same table the server validates with, shared/domain/notifications/notifiers/). The
// API's messages land on the key they name (`provider_config.<key>`). A webhook given no secret gets one,
// shown once. An edit PATCHes the sink: a secret left empty keeps the stored one (the API never returns
// it), an emptied plain key is sent as null, which removes it. Every sink's title and body templates have a
// Preview: the server renders them against its sample alert, a template error lands on its field.
import { useState } from "preact/hooks";
import { NOTIFIER_FIELDS, NOTIFIER_TYPES, type NotifierType } from "../../../shared/domain/notifications/notifiers/index.ts";
import { TEMPLATE_KEYS } from "../../../shared/domain/notifications/templates.ts";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice, TextInput } from "../components/field.tsx";
import { fieldHint, providerName } from "../i18n/domain-text.ts";
import { useT } from "../i18n/use-t.ts";

/** The typed value of one config input: numbers and booleans as such, an empty input left out. */
function configValue(kind: string, raw: string): unknown {
  const v = raw.trim();
  if (v === "") return undefined;
  if (kind === "port" || kind === "priority" || kind === "integer") return Number.isFinite(Number(v)) ? Number(v) : v;
  if (kind === "bool") return v === "true";
  return v;
}

type TemplatePreview = paths["/api/v1/notifications/templates/preview"]["post"]["responses"][200]["content"]["application/json"];

export type Sink = paths["/api/v1/notifications/sinks"]["get"]["responses"][200]["content"]["application/json"]["items"][number];

/** The stored plain values as the inputs show them; secrets start empty (they are never answered). */
function inputsOf(sink: Sink | undefined): Record<string, string> {
  if (!sink) return {};
  const fields = NOTIFIER_FIELDS[sink.provider_type as NotifierType] ?? {};
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([k, f]) => !f.secret && sink.provider_config[k] != null)
      .map(([k]) => [k, String(sink.provider_config[k])]),
  );
}

export function SinkForm({
  sink,
  onSaved,
  onCancel,
}: {
  sink?: Sink;
  onSaved: (secret: string | undefined) => void;
  onCancel?: () => void;
}) {
  const t = useT();
  const [name, setName] = useState(sink?.name ?? "");
  const [type, setType] = useState<NotifierType>((sink?.provider_type as NotifierType | undefined) ?? "webhook");
  const [config, setConfig] = useState<Record<string, string>>(() => inputsOf(sink));
  const submit = useSubmit();
  const trial = useSubmit();
  const [preview, setPreview] = useState<TemplatePreview | undefined>();
  // Whose messages the template fields show: the latest of a save and a preview.
  const [latest, setLatest] = useState<"save" | "preview">("save");
  const fields = NOTIFIER_FIELDS[type];
  const prefix = sink ? `sink-${sink.id}` : "sink";
  // A new type's keys start afresh on the server (changing provider_type drops the old config).
  const sameType = sink !== undefined && sink.provider_type === type;
  /** The field's own hint, and for a secret whether one is stored (it is never shown). */
  const hintOf = (key: string, f: (typeof fields)[string]): string | undefined => {
    const stored =
      f.secret && sameType
        ? sink?.provider_config[`${key}_set`] === true
          ? t("settings:secret.set")
          : t("settings:secret.notSet")
        : type === "webhook" && key === "secret" && !sink
          ? t("settings:sink.secretGenerated")
          : undefined;
    return [fieldHint(t, type, key, f.hint), stored].filter(Boolean).join(" ") || undefined;
  };

  const send = (e: Event) => {
    e.preventDefault();
    setLatest("save");
    void submit.run(async () => {
      const provider_config: Record<string, unknown> = {};
      for (const [key, f] of Object.entries(fields)) {
        const v = configValue(f.kind, config[key] ?? "");
        if (v !== undefined) provider_config[key] = v;
        else if (sameType && !f.secret && sink?.provider_config[key] != null) provider_config[key] = null;
      }
      if (sink) {
        await ok(
          api.PATCH("/api/v1/notifications/sinks/{sink_id}", {
            params: { path: { sink_id: String(sink.id) } },
            body: { name: name.trim(), provider_type: type, provider_config },
          }),
        );
        onSaved(undefined);
        return;
      }
      const created = await ok(
        api.POST("/api/v1/notifications/sinks", { body: { name: name.trim(), provider_type: type, provider_config } }),
      );
      setName("");
      setConfig({});
      onSaved(created.secret);
    });
  };

  // The templates as they stand, rendered by the server against its sample alert (a down monitor with two
  // dependents folded into it): what a page would say, before saving.
  const showPreview = () => {
    setLatest("preview");
    setPreview(undefined);
    void trial.run(async () => {
      const body = { title_template: config.title_template ?? "", body_template: config.body_template ?? "" };
      setPreview(await ok(api.POST("/api/v1/notifications/templates/preview", { body })));
    });
  };
  const errorOf = (key: string) =>
    latest === "preview" && key in TEMPLATE_KEYS ? trial.fields[key] : submit.fields[`provider_config.${key}`];

  return (
    <form class="card" onSubmit={send} noValidate aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`}>{sink ? t("settings:sink.edit", { name: sink.name }) : t("settings:sink.new")}</h2>
      <TextInput
        id={`${prefix}-name`}
        label={t("settings:name")}
        value={name}
        error={submit.fields.name}
        onValue={setName}
        autoComplete="off"
      />
      <Field id={`${prefix}-type`} label={t("settings:notifications.provider")} error={submit.fields.provider_type}>
        {(a11y) => (
          <select {...a11y} value={type} onChange={(e) => setType((e.currentTarget as HTMLSelectElement).value as NotifierType)}>
            {NOTIFIER_TYPES.map((n) => (
              <option key={n} value={n}>
                {providerName(t, n)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {Object.entries(fields).map(([key, f]) => {
        const id = `${prefix}-${key}`;
        // The provider's key names, read as words in every language (they are the API's field names, which its
        // messages name too; the translated hint says what the value is); a key needed unless another is
        // given says so instead of "(optional)".
        const words = key.replace(/_/g, " ");
        const label = f.required
          ? words
          : f.requiredUnless
            ? t("settings:sink.orOther", { key: words, other: f.requiredUnless.replace(/_/g, " ") })
            : t("settings:sink.optional", { key: words });
        const error = errorOf(key);
        const set = (v: string) => setConfig((old) => ({ ...old, [key]: v }));
        const hint = hintOf(key, f);
        if (f.kind === "choice")
          return (
            <Field key={`${type}-${key}`} id={id} label={label} error={error} {...(hint ? { hint } : {})}>
              {(a11y) => (
                <select {...a11y} value={config[key] ?? ""} onChange={(e) => set((e.currentTarget as HTMLSelectElement).value)}>
                  <option value="">{t("settings:sink.default")}</option>
                  {(f.options ?? []).map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          );
        if (f.kind === "text")
          return (
            <Field key={`${type}-${key}`} id={id} label={label} error={error} {...(hint ? { hint } : {})}>
              {(a11y) => (
                <textarea
                  {...a11y}
                  rows={4}
                  value={config[key] ?? ""}
                  onInput={(e) => set((e.currentTarget as HTMLTextAreaElement).value)}
                />
              )}
            </Field>
          );
        if (f.kind === "bool")
          return (
            <Field key={`${type}-${key}`} id={id} label={label} error={error} {...(hint ? { hint } : {})}>
              {(a11y) => (
                <select {...a11y} value={config[key] ?? ""} onChange={(e) => set((e.currentTarget as HTMLSelectElement).value)}>
                  <option value="">{t("settings:sink.default")}</option>
                  <option value="true">{t("settings:vault.yes")}</option>
                  <option value="false">{t("settings:sink.no")}</option>
                </select>
              )}
            </Field>
          );
        return (
          <TextInput
            key={`${type}-${key}`}
            id={id}
            label={label}
            type={f.secret ? "password" : "text"}
            autoComplete="off"
            value={config[key] ?? ""}
            error={error}
            onValue={set}
            {...(hint ? { hint } : {})}
          />
        );
      })}
      <div class="actions">
        <button type="button" onClick={showPreview} disabled={trial.busy}>
          {t("settings:sink.preview")}
        </button>
      </div>
      {latest === "preview" && !trial.fields.title_template && !trial.fields.body_template && <Notice kind="error">{trial.error}</Notice>}
      {preview && (
        <section class="notice notice-info" role="status" aria-label={t("settings:sink.preview")}>
          <p>
            <strong>{preview.title}</strong>
          </p>
          <p class="message-preview">{preview.body}</p>
          <p class="hint">{t("settings:sink.sample")}</p>
        </section>
      )}
      <Notice kind="error">{submit.fields.provider_config ? undefined : submit.error}</Notice>
      {submit.fields.provider_config && <Notice kind="error">{t("settings:sink.fix")}</Notice>}
      <div class="actions">
        <button type="submit" class="primary" disabled={submit.busy}>
          {sink ? t("settings:sink.save") : t("settings:sink.create")}
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
