// The custom fields of an inventory kind in the console (docs/custom-fields.md): the definitions an
// administrator made (GET /custom-fields), drawn in the kind's form by type, shown on its detail page, and
// offered as list columns and filters (cf_<name>). Labels are the administrator's own words, shown as
// written. Every inventory screen needs them, so they are read once for all kinds and kept a minute (a
// read per screen met the route's rate limit in a working session: tests/e2e/web/console-session.test.ts);
// the Settings screen forgets them when it changes one.
import { anyApi, ok } from "../api/client.ts";
import { Field } from "../components/field.tsx";
import { RefPicker } from "../components/ref-picker.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { GROUPS } from "./groups.ts";
import type { AnyColumn, AnyFilter, Group, GroupKey } from "./types.ts";

export interface CustomFieldDef {
  id: number;
  name: string;
  label: string;
  description: string | null;
  kinds: string[];
  type: "text" | "integer" | "decimal" | "boolean" | "date" | "url" | "selection" | "multi_selection" | "reference";
  required: boolean;
  default: unknown;
  choices: string[];
  reference_kind: string | null;
  version: number;
}

/** How long the definitions read once are used before they are read again. */
const FRESH_MS = 60_000;
/** The largest number of definitions read (pages of 100): far above what an operator defines. */
const MAX_DEFINITIONS = 1_000;
let cached: { at: number; defs: Promise<CustomFieldDef[]> } | undefined;

/** Every definition, in form order: read once, shared by every screen for a minute. */
function allDefinitions(): Promise<CustomFieldDef[]> {
  if (cached && Date.now() - cached.at < FRESH_MS) return cached.defs;
  const defs = (async () => {
    const out: CustomFieldDef[] = [];
    for (let offset = 0; offset < MAX_DEFINITIONS; offset += 100) {
      const query = { limit: "100", offset: String(offset), sort: "weight" };
      const page = (await ok(anyApi.GET("/api/v1/custom-fields", { params: { query } }))) as { items: CustomFieldDef[]; total: number };
      out.push(...page.items);
      if (out.length >= page.total || page.items.length === 0) break;
    }
    return out;
  })();
  cached = { at: Date.now(), defs };
  // A failed read is not kept: the next screen asks again.
  defs.catch(() => {
    if (cached?.defs === defs) cached = undefined;
  });
  return defs;
}

/** After a definition is created, changed or deleted: the next screen reads them afresh. */
export function forgetCustomFields(): void {
  cached = undefined;
}

/** The definitions applying to a kind (every kind's when none is named), in form order. */
export function useCustomFields(kind?: string) {
  return useLoad(async () => {
    const defs = await allDefinitions();
    return kind ? defs.filter((d) => d.kinds.includes(kind)) : defs;
  }, [kind ?? ""]);
}

/** The group whose records a reference field names. */
export const groupOfKind = (kind: string | null): GroupKey | undefined =>
  (Object.values(GROUPS) as Group[]).find((g) => g.kind === kind)?.key;

const key = (d: CustomFieldDef) => `cf_${d.name}`;

/** The group with its custom fields as optional columns, sorts and filters (a selection's filter is a choice). */
export function withCustomColumns(group: Group, defs: readonly CustomFieldDef[]): Group {
  if (defs.length === 0) return group;
  const columns: AnyColumn[] = defs.map((d) => ({ name: key(d), label: d.label, text: d.label, optional: true }));
  const filters: AnyFilter[] = defs.map((d) => ({
    name: key(d),
    label: d.label,
    text: d.label,
    ...(d.type === "selection" || d.type === "multi_selection" ? { options: d.choices } : {}),
    ...(d.type === "boolean" ? { options: ["true", "false"] } : {}),
  }));
  return {
    ...group,
    columns: [...group.columns, ...columns],
    sorts: [...group.sorts, ...defs.filter((d) => d.type !== "multi_selection").map(key)],
    filters: [...group.filters, ...filters],
  };
}

/** A value as text: a list joined by ", ", nothing as a dash (as list-page.tsx's cells, which import this file). */
export function cell(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (Array.isArray(value)) return value.join(", ") || "—";
  if (typeof value === "object") return utilisationText(value as Record<string, unknown>);
  return String(value);
}

/** A utilisation the API answers: a rack's units used / reserved / free, a prefix's percent with its counts. */
function utilisationText(u: Record<string, unknown>): string {
  if ("used_u" in u) return `${String(u.used_u)} / ${String(u.reserved_u)} / ${String(u.free_u)} U`;
  if ("percent" in u) return `${String(u.percent)} % (${String(u.used)} / ${String(u.total)})`;
  return JSON.stringify(u);
}

/** A list cell's or detail's value of a record: `cf_<name>` reads its custom field. */
export function customValue(item: Record<string, unknown>, name: string): unknown {
  return (item.custom_fields as Record<string, unknown> | undefined)?.[name.slice(3)];
}

export function showValue(d: CustomFieldDef, value: unknown, yes: string, no: string): string {
  if (d.type === "boolean" && typeof value === "boolean") return value ? yes : no;
  return cell(value);
}

/** What the form holds of a field: text for inputs, a list for a multi-selection, a flag for a checkbox. */
export type CustomFormValue = string | string[] | boolean;
export type CustomFormValues = Record<string, CustomFormValue>;

export function toFormValues(defs: readonly CustomFieldDef[], stored: Record<string, unknown> | undefined): CustomFormValues {
  const out: CustomFormValues = {};
  for (const d of defs) {
    const v = stored?.[d.name];
    if (d.type === "multi_selection") out[d.name] = Array.isArray(v) ? (v as string[]) : [];
    else if (d.type === "boolean") out[d.name] = v === true;
    else out[d.name] = v === null || v === undefined ? "" : String(v);
  }
  return out;
}

/**
 * The body's `custom_fields`: every field the form shows, as the API takes it. An emptied field is
 * cleared (null) on an edit and left out on a create (which gives it its default).
 */
export function toCustomBody(defs: readonly CustomFieldDef[], values: CustomFormValues, creating: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const d of defs) {
    const v = values[d.name];
    if (d.type === "boolean") body[d.name] = v === true;
    else if (d.type === "multi_selection") {
      const list = Array.isArray(v) ? v : [];
      if (list.length > 0 || !creating) body[d.name] = list.length > 0 ? list : null;
    } else {
      const text = typeof v === "string" ? v.trim() : "";
      if (text === "") {
        if (!creating) body[d.name] = null;
      } else if (d.type === "integer" || d.type === "decimal" || d.type === "reference")
        body[d.name] = Number.isFinite(Number(text)) ? Number(text) : text;
      else body[d.name] = text;
    }
  }
  return body;
}

function CustomInput({
  def: d,
  value,
  onValue,
  a11y,
}: {
  def: CustomFieldDef;
  value: CustomFormValue;
  onValue: (v: CustomFormValue) => void;
  a11y: { id: string; "aria-invalid": boolean; "aria-describedby"?: string };
}) {
  const t = useT();
  const text = typeof value === "string" ? value : "";
  const onInput = (e: Event) => onValue((e.currentTarget as HTMLInputElement).value);
  switch (d.type) {
    case "boolean":
      return (
        <input
          {...a11y}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onValue((e.currentTarget as HTMLInputElement).checked)}
        />
      );
    case "selection":
      return (
        <select {...a11y} value={text} onChange={onInput}>
          <option value="">{t("custom-fields:form.none")}</option>
          {d.choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      );
    case "multi_selection":
      return (
        <select
          {...a11y}
          multiple
          size={Math.min(6, Math.max(2, d.choices.length))}
          onChange={(e) => onValue([...(e.currentTarget as HTMLSelectElement).selectedOptions].map((o) => o.value))}
        >
          {d.choices.map((c) => (
            <option key={c} value={c} selected={Array.isArray(value) && value.includes(c)}>
              {c}
            </option>
          ))}
        </select>
      );
    case "reference": {
      const group = groupOfKind(d.reference_kind);
      if (group) return <RefPicker source={GROUPS[group]} value={text} onValue={onValue} a11y={a11y} />;
      return <input {...a11y} type="text" inputMode="numeric" value={text} onInput={onInput} />;
    }
    case "integer":
    case "decimal":
      return <input {...a11y} type="text" inputMode={d.type === "integer" ? "numeric" : "decimal"} value={text} onInput={onInput} />;
    case "date":
      return <input {...a11y} type="date" value={text} onInput={onInput} />;
    case "url":
      return <input {...a11y} type="url" value={text} onInput={onInput} />;
    default:
      return <input {...a11y} type="text" value={text} onInput={onInput} />;
  }
}

/** The form's custom fields, each with the API's 422 message for `custom_fields.<name>`. */
export function CustomFieldInputs({
  defs,
  values,
  onValues,
  errors,
}: {
  defs: readonly CustomFieldDef[];
  values: CustomFormValues;
  onValues: (change: (old: CustomFormValues) => CustomFormValues) => void;
  errors: Record<string, string>;
}) {
  const t = useT();
  if (defs.length === 0) return null;
  return (
    <fieldset class="custom-fields">
      <legend>{t("custom-fields:form.legend")}</legend>
      {defs.map((d) => (
        <Field
          key={d.name}
          id={`cf-${d.name}`}
          label={d.required ? t("custom-fields:form.requiredLabel", { label: d.label }) : d.label}
          error={errors[`custom_fields.${d.name}`]}
          {...(d.description ? { hint: d.description } : {})}
        >
          {(a11y) => (
            <CustomInput def={d} value={values[d.name] ?? ""} onValue={(v) => onValues((old) => ({ ...old, [d.name]: v }))} a11y={a11y} />
          )}
        </Field>
      ))}
    </fieldset>
  );
}

/** The detail page's custom field values (the fields with none are left out). */
export function CustomFieldValues({ defs, item }: { defs: readonly CustomFieldDef[]; item: Record<string, unknown> }) {
  const t = useT();
  const stored = (item.custom_fields ?? {}) as Record<string, unknown>;
  const set = defs.filter((d) => stored[d.name] !== undefined && stored[d.name] !== null);
  if (set.length === 0) return null;
  return (
    <>
      {set.map((d) => (
        <div key={d.name} data-custom-field={d.name}>
          <dt>{d.label}</dt>
          <dd>{showValue(d, stored[d.name], t("custom-fields:value.yes"), t("custom-fields:value.no"))}</dd>
        </div>
      ))}
    </>
  );
}
