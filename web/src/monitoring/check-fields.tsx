// The monitor form's fields for one check type's config (check-config.ts), each showing the API's 422 for
// its key: `config.url`, or for a list or the headers the first message under it (`config.accepted_statuses.0`,
// `config.headers.X-A`).
import { Field } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";
import { type CheckType, checked, CONFIG_FIELDS, type ConfigValues, shown } from "./check-config.ts";

export function configError(fields: Record<string, string>, key: string): string | undefined {
  const exact = fields[`config.${key}`];
  if (exact) return exact;
  const nested = Object.keys(fields).find((k) => k.startsWith(`config.${key}.`));
  return nested ? fields[nested] : undefined;
}

export function CheckFields({
  type,
  values,
  onValues,
  errors,
}: {
  type: CheckType;
  values: ConfigValues;
  onValues: (change: ConfigValues) => void;
  errors: Record<string, string>;
}) {
  const t = useT();
  const fields = CONFIG_FIELDS[type].filter((f) => shown(f, values));
  if (fields.length === 0) return null;
  return (
    <fieldset class="check-config">
      <legend>{t("monitoring:checkFields.legend", { type })}</legend>
      {fields.map((f) => {
        const id = `config-${f.key}`;
        const value = values[f.key] ?? "";
        const set = (e: Event) => onValues({ [f.key]: (e.currentTarget as HTMLInputElement).value });
        const error = configError(errors, f.key);
        if (f.kind === "checkbox")
          return (
            <div key={f.key} class={`field${error ? " field-invalid" : ""}`}>
              <label class="check row">
                <input
                  id={id}
                  type="checkbox"
                  checked={checked(f, values)}
                  onChange={(e) => onValues({ [f.key]: String((e.currentTarget as HTMLInputElement).checked) })}
                />{" "}
                {t(f.label)}
              </label>
              {error && (
                <small class="field-error" role="alert">
                  {error}
                </small>
              )}
            </div>
          );
        return (
          <Field key={f.key} id={id} label={t(f.label)} error={error} {...(f.hint ? { hint: t(f.hint, f.hintValues ?? {}) } : {})}>
            {(a11y) =>
              f.kind === "select" ? (
                <select {...a11y} value={value} onChange={set}>
                  <option value="">{t("monitoring:checkFields.default")}</option>
                  {(f.options ?? []).map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              ) : f.kind === "headers" || f.kind === "multiline" ? (
                <textarea {...a11y} rows={3} value={value} onInput={set} />
              ) : (
                <input
                  {...a11y}
                  type={(f.kind === "secret" ? "password" : "text") as "text"}
                  autoComplete={f.kind === "secret" ? "new-password" : "off"}
                  inputMode={f.kind === "number" ? "decimal" : undefined}
                  value={value}
                  onInput={set}
                />
              )
            }
          </Field>
        );
      })}
    </fieldset>
  );
}
