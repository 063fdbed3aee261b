// Settings > Custom fields (docs/custom-fields.md): the fields administrators add to inventory kinds.
// A table of the definitions, a form for a new one or for changing one (name and type are fixed once
// made), and delete, which asks first and sends the confirmation headers: it removes the field's values
// from every object that has one.
import { useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice } from "../components/field.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { type CustomFieldDef, forgetCustomFields } from "../inventory/custom-fields.tsx";
import { GROUP_TITLES } from "../shell/group-titles.ts";
import { GROUPS } from "../inventory/groups.ts";
import type { Group } from "../inventory/types.ts";
import { useLoad } from "../use-load.ts";
import { Table } from "./table.tsx";

const TYPE_LABELS = {
  text: i18nKey("custom-fields:type.text"),
  integer: i18nKey("custom-fields:type.integer"),
  decimal: i18nKey("custom-fields:type.decimal"),
  boolean: i18nKey("custom-fields:type.boolean"),
  date: i18nKey("custom-fields:type.date"),
  url: i18nKey("custom-fields:type.url"),
  selection: i18nKey("custom-fields:type.selection"),
  multi_selection: i18nKey("custom-fields:type.multi_selection"),
  reference: i18nKey("custom-fields:type.reference"),
} as const;
const TYPES = Object.keys(TYPE_LABELS) as (keyof typeof TYPE_LABELS)[];
/** The inventory kinds a field may apply to, by their group's title. */
const KINDS = (Object.values(GROUPS) as Group[]).map((g) => ({ kind: g.kind as string, title: GROUP_TITLES[g.key] }));

interface Draft {
  name: string;
  label: string;
  description: string;
  kinds: string[];
  type: keyof typeof TYPE_LABELS;
  required: boolean;
  choices: string;
  reference_kind: string;
  default: string;
  regex: string;
  weight: string;
}

const EMPTY: Draft = {
  name: "",
  label: "",
  description: "",
  kinds: [],
  type: "text",
  required: false,
  choices: "",
  reference_kind: "",
  default: "",
  regex: "",
  weight: "100",
};

function draftOf(d: CustomFieldDef & { regex?: string | null; weight?: number }): Draft {
  return {
    name: d.name,
    label: d.label,
    description: d.description ?? "",
    kinds: d.kinds,
    type: d.type,
    required: d.required,
    choices: d.choices.join(", "),
    reference_kind: d.reference_kind ?? "",
    default: d.default === null || d.default === undefined ? "" : Array.isArray(d.default) ? d.default.join(", ") : String(d.default),
    regex: d.regex ?? "",
    weight: String(d.weight ?? 100),
  };
}

/** The default as the field's type takes it (numbers as numbers, a flag, a list of choices). */
function defaultOf(d: Draft): unknown {
  const text = d.default.trim();
  if (text === "") return null;
  if (d.type === "integer" || d.type === "decimal" || d.type === "reference") return Number.isFinite(Number(text)) ? Number(text) : text;
  if (d.type === "boolean") return text === "true";
  if (d.type === "multi_selection")
    return text
      .split(",")
      .map((c) => c.trim())
      .filter(Boolean);
  return text;
}

function bodyOf(d: Draft, creating: boolean): Record<string, unknown> {
  const selection = d.type === "selection" || d.type === "multi_selection";
  return {
    ...(creating ? { name: d.name.trim(), type: d.type } : {}),
    label: d.label,
    description: d.description.trim() || null,
    kinds: d.kinds,
    required: d.required,
    choices: selection
      ? d.choices
          .split(",")
          .map((c) => c.trim())
          .filter(Boolean)
      : [],
    reference_kind: d.type === "reference" ? d.reference_kind || null : null,
    regex: d.type === "text" ? d.regex.trim() || null : null,
    default: defaultOf(d),
    weight: Number(d.weight) || 0,
  };
}

function DefinitionForm({ editing, onDone }: { editing: CustomFieldDef | undefined; onDone: () => void }) {
  const t = useT();
  const creating = editing === undefined;
  const [d, setD] = useState<Draft>(() => (editing ? draftOf(editing) : EMPTY));
  const submit = useSubmit();
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((old) => ({ ...old, [k]: v }));
  const text = (k: "name" | "label" | "description" | "choices" | "default" | "regex" | "weight", label: string, hint?: string) => (
    <Field id={`cfd-${k}`} label={label} error={submit.fields[k]} {...(hint ? { hint } : {})}>
      {(a11y) => (
        <input
          {...a11y}
          type="text"
          value={d[k]}
          disabled={k === "name" && !creating}
          onInput={(e) => set(k, (e.currentTarget as HTMLInputElement).value)}
        />
      )}
    </Field>
  );
  const save = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      const body = bodyOf(d, creating);
      if (creating) await ok(anyApi.POST("/api/v1/custom-fields", { body }));
      else
        await ok(
          anyApi.PATCH("/api/v1/custom-fields/{custom_field_id}", {
            params: { path: { custom_field_id: String(editing.id) } },
            body,
            headers: { "If-Match": `"${editing.version}"` },
          }),
        );
      forgetCustomFields();
      onDone();
    });
  };
  return (
    <form onSubmit={save} noValidate class="custom-field-form" aria-labelledby="cfd-title">
      <h2 id="cfd-title">{creating ? t("custom-fields:form.newTitle") : t("custom-fields:form.editTitle", { name: d.name })}</h2>
      {text("name", t("custom-fields:field.name"), t("custom-fields:hint.name"))}
      {text("label", t("custom-fields:field.label"))}
      {text("description", t("custom-fields:field.description"))}
      <fieldset>
        <legend>{t("custom-fields:field.kinds")}</legend>
        {KINDS.map((k) => (
          <label key={k.kind}>
            <input
              type="checkbox"
              checked={d.kinds.includes(k.kind)}
              onChange={(e) =>
                set("kinds", (e.currentTarget as HTMLInputElement).checked ? [...d.kinds, k.kind] : d.kinds.filter((x) => x !== k.kind))
              }
            />{" "}
            {t(k.title)}
          </label>
        ))}
        {submit.fields.kinds && (
          <small class="field-error" role="alert">
            {submit.fields.kinds}
          </small>
        )}
      </fieldset>
      <Field id="cfd-type" label={t("custom-fields:field.type")} error={submit.fields.type}>
        {(a11y) => (
          <select
            {...a11y}
            value={d.type}
            disabled={!creating}
            onChange={(e) => set("type", (e.currentTarget as HTMLSelectElement).value as Draft["type"])}
          >
            {TYPES.map((ty) => (
              <option key={ty} value={ty}>
                {t(TYPE_LABELS[ty])}
              </option>
            ))}
          </select>
        )}
      </Field>
      {(d.type === "selection" || d.type === "multi_selection") &&
        text("choices", t("custom-fields:field.choices"), t("custom-fields:hint.choices"))}
      {d.type === "reference" && (
        <Field id="cfd-reference_kind" label={t("custom-fields:field.referenceKind")} error={submit.fields.reference_kind}>
          {(a11y) => (
            <select
              {...a11y}
              value={d.reference_kind}
              onChange={(e) => set("reference_kind", (e.currentTarget as HTMLSelectElement).value)}
            >
              <option value="">—</option>
              {KINDS.map((k) => (
                <option key={k.kind} value={k.kind}>
                  {t(k.title)}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {d.type === "text" && text("regex", t("custom-fields:field.regex"))}
      <Field id="cfd-required" label={t("custom-fields:field.required")} error={submit.fields.required}>
        {(a11y) => (
          <input
            {...a11y}
            type="checkbox"
            checked={d.required}
            onChange={(e) => set("required", (e.currentTarget as HTMLInputElement).checked)}
          />
        )}
      </Field>
      {text("default", t("custom-fields:field.default"))}
      {text("weight", t("custom-fields:field.weight"), t("custom-fields:hint.weight"))}
      <Notice kind="error">
        {submit.errorBesides(["name", "label", "description", "kinds", "type", "choices", "reference_kind", "regex", "default", "weight"])}
      </Notice>
      <div class="actions">
        <button type="submit" class="primary" disabled={submit.busy}>
          {creating ? t("custom-fields:form.create") : t("custom-fields:form.save")}
        </button>
        <button type="button" onClick={onDone}>
          {t("custom-fields:form.cancel")}
        </button>
      </div>
    </form>
  );
}

export function CustomFieldsSection() {
  const t = useT();
  const admin = useSession().can("write:custom-fields");
  const list = useLoad(
    async () =>
      (
        (await ok(anyApi.GET("/api/v1/custom-fields", { params: { query: { limit: "100", sort: "weight" } } }))) as {
          items: CustomFieldDef[];
        }
      ).items,
    [],
  );
  const [editing, setEditing] = useState<CustomFieldDef | "new" | undefined>();
  const [error, setError] = useState<string | undefined>();
  const kindTitle = (kind: string) => {
    const k = KINDS.find((x) => x.kind === kind);
    return k ? t(k.title) : kind;
  };
  const remove = async (d: CustomFieldDef) => {
    if (!confirm(t("custom-fields:list.confirmDelete", { label: d.label }))) return;
    setError(undefined);
    try {
      const headers = { "x-svc-confirmation": "delete-custom-field", "idempotency-key": crypto.randomUUID(), "If-Match": `"${d.version}"` };
      await ok(anyApi.DELETE("/api/v1/custom-fields/{custom_field_id}", { params: { path: { custom_field_id: String(d.id) } }, headers }));
      forgetCustomFields();
      list.reload();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const done = () => {
    setEditing(undefined);
    list.reload();
  };
  return (
    <section aria-labelledby="cf-title">
      <h2 id="cf-title">{t("custom-fields:list.title")}</h2>
      <p>{t("custom-fields:list.intro")}</p>
      {list.error !== undefined && <Notice kind="error">{messageOf(list.error)}</Notice>}
      <Notice kind="error">{error}</Notice>
      {admin && editing === undefined && (
        <button type="button" class="primary" onClick={() => setEditing("new")}>
          {t("custom-fields:list.new")}
        </button>
      )}
      {editing !== undefined && (
        <DefinitionForm key={editing === "new" ? "new" : editing.id} editing={editing === "new" ? undefined : editing} onDone={done} />
      )}
      {list.data && list.data.length === 0 && <p>{t("custom-fields:list.empty")}</p>}
      {list.data && list.data.length > 0 && (
        <Table
          caption={t("custom-fields:list.title")}
          columns={[
            t("custom-fields:field.label"),
            t("custom-fields:field.name"),
            t("custom-fields:field.type"),
            t("custom-fields:field.kinds"),
            t("custom-fields:field.required"),
          ]}
          actions={admin}
        >
          {list.data.map((d) => (
            <tr key={d.id}>
              <td data-label={t("custom-fields:field.label")}>{d.label}</td>
              <td data-label={t("custom-fields:field.name")}>
                <code>{d.name}</code>
              </td>
              <td data-label={t("custom-fields:field.type")}>{t(TYPE_LABELS[d.type])}</td>
              <td data-label={t("custom-fields:field.kinds")}>{d.kinds.map(kindTitle).join(", ")}</td>
              <td data-label={t("custom-fields:field.required")}>
                {d.required ? t("custom-fields:value.yes") : t("custom-fields:value.no")}
              </td>
              {admin && (
                <td>
                  <button type="button" class="link" onClick={() => setEditing(d)}>
                    {t("custom-fields:list.edit", { label: d.label })}
                  </button>{" "}
                  <button type="button" class="link danger" onClick={() => void remove(d)}>
                    {t("custom-fields:list.delete", { label: d.label })}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
