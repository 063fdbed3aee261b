// A colour typed as #RRGGBB or picked, where empty means "follow the branding settings" (the API's null):
// a colour input alone cannot be empty.
import { Field } from "../components/field.tsx";

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
  return (
    <Field id={id} label={label} error={error} hint="#RRGGBB; empty follows the branding settings">
      {(a11y) => (
        <div class="colour-field">
          <input
            {...a11y}
            value={value}
            placeholder="from branding"
            onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
          />
          <input
            type="color"
            aria-label={`Pick the ${label.toLowerCase()}`}
            value={/^#[0-9a-f]{6}$/i.test(value) ? value : "#000000"}
            onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
      )}
    </Field>
  );
}
