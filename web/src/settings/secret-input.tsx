// A write-only secret in a settings form: shown as set or not set (never its value), kept when the input
// is left empty, removed only by its checkbox. `secretPatch` turns the draft into the API's convention:
// absent keeps, a string replaces, null removes.
import { TextInput } from "../components/field.tsx";
import { activeLocale } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

export interface SecretDraft {
  value: string;
  remove: boolean;
}

export const emptySecret: SecretDraft = { value: "", remove: false };

export function secretPatch(key: string, d: SecretDraft): Record<string, string | null> {
  return d.remove ? { [key]: null } : d.value ? { [key]: d.value } : {};
}

interface Props {
  id: string;
  label: string;
  stored: boolean;
  draft: SecretDraft;
  error?: string | undefined;
  onDraft: (d: SecretDraft) => void;
}

/** "Password" reads "password" mid-sentence; "API key" and "TSIG secret" keep their capitals, and so do German nouns. */
const midSentence = (label: string) =>
  activeLocale() !== "de" && /^.[a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;

export function SecretInput({ id, label, stored, draft, error, onDraft }: Props) {
  const t = useT();
  return (
    <>
      <TextInput
        id={id}
        label={label}
        type="password"
        autoComplete="new-password"
        hint={stored ? t("settings:secret.set") : t("settings:secret.notSet")}
        value={draft.value}
        error={error}
        onValue={(value) => onDraft({ value, remove: false })}
      />
      {stored && (
        <label class="check row">
          <input type="checkbox" checked={draft.remove} onChange={() => onDraft({ value: "", remove: !draft.remove })} />{" "}
          {t("settings:secret.remove", { label: midSentence(label) })}
        </label>
      )}
    </>
  );
}
