// A colour typed as #RRGGBB or picked, where empty means "follow the branding settings" (the API's null):
// a colour input alone cannot be empty.
import { Field } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";

export function ColourField({
  id,
  label,
  value,
  error,
  onValue,
}: {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onValue: (v: string) => void;
}) {
  const t = useT();
  return (
    <Field id={id} label={label} error={error} hint={t("status-pages:colour.hint")}>
      {(a11y) => (
        <div class="colour-field">
          <input
            {...a11y}
            value={value}
            placeholder={t("status-pages:colour.placeholder")}
            onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
          />
          <input
            type="color"
            aria-label={t("status-pages:colour.pick", { label })}
            value={/^#[0-9a-f]{6}$/i.test(value) ? value : "#000000"}
            onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
      )}
    </Field>
  );
}
