// One form field of a group, as the form page and the bulk edit dialog both show and send it: the input
// its kind calls for (text, number, select, a search picker for a reference, tags, a text area), and
// the value the API takes (numbers as numbers, tags as a list, an emptied field as null).
import { RefPicker } from "../components/ref-picker.tsx";
import { t } from "../i18n/i18n.ts";
import { GROUPS } from "./groups.ts";
import type { AnyField } from "./types.ts";

export type A11y = { id: string; "aria-invalid": boolean; "aria-describedby"?: string };

/**
 * The API's value of a field typed as `raw`; undefined leaves it out of the body. An empty field is
 * cleared (null) unless `creating` (left to its default); the name is sent empty so the API says it is
 * required; a select's empty choice ("Default", "Unchanged") is left out.
 */
export function fieldValue(f: AnyField, raw: string, creating: boolean): unknown {
  const text = raw.trim();
  if (f.kind === "tags")
    return text
      ? text
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean)
      : [];
  if (text === "") return f.name === "name" ? "" : !creating && f.kind !== "select" && f.kind !== "boolean" ? null : undefined;
  if (f.kind === "boolean") return text === "true";
  if (f.kind === "number" || f.kind === "ref") return Number.isFinite(Number(text)) ? Number(text) : text;
  return text;
}

export function FieldInput({
  field: f,
  value,
  onValue,
  a11y,
  emptyChoice,
}: {
  field: AnyField;
  value: string;
  onValue: (v: string) => void;
  a11y: A11y;
  /** A select's empty option. */
  emptyChoice: string;
}) {
  const onInput = (e: Event) => onValue((e.currentTarget as HTMLInputElement).value);
  if (f.kind === "textarea") return <textarea {...a11y} rows={4} value={value} onInput={onInput} />;
  if (f.kind === "select")
    return (
      <select {...a11y} value={value} onChange={onInput}>
        <option value="">{emptyChoice}</option>
        {(f.options ?? []).map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  if (f.kind === "boolean")
    return (
      <select {...a11y} value={value} onChange={onInput}>
        <option value="">{emptyChoice}</option>
        <option value="true">{t("inventory:form.yes")}</option>
        <option value="false">{t("inventory:form.no")}</option>
      </select>
    );
  if (f.kind === "ref" && f.ref) return <RefPicker source={GROUPS[f.ref]} value={value} onValue={onValue} a11y={a11y} />;
  return <input {...a11y} type="text" inputMode={f.kind === "number" ? "decimal" : undefined} value={value} onInput={onInput} />;
}
