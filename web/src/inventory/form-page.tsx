// Create and edit forms for a group. An edit sends If-Match with the version it loaded, so a concurrent
// change answers 412 and is shown (with a way to load that change), never silently overwritten. The API's
// 422 messages are shown on their fields.
import { SaveBar } from "../components/save-bar.tsx";
import { useEffect, useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { ApiProblem, messageOf } from "../api/problem.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice } from "../components/field.tsx";
import { navigate } from "../router.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { FieldInput, fieldValue } from "./field-input.tsx";
import { titleOf } from "./list-page.tsx";
import { GROUP_NOUNS } from "./group-nouns.ts";
import type { AnyField, Group } from "./types.ts";
import { CustomFieldInputs, type CustomFormValues, toCustomBody, toFormValues, useCustomFields } from "./custom-fields.tsx";

type Values = Record<string, string>;
type Item = Record<string, unknown> & { id: number; version?: number };

function toValues(fields: readonly AnyField[], item: Item | undefined): Values {
  const out: Values = {};
  for (const f of fields) {
    const v = item?.[f.name];
    out[f.name] = v === null || v === undefined ? "" : Array.isArray(v) ? v.join(", ") : String(v);
  }
  return out;
}

/** The request body: each field's value as the API takes it (field-input.tsx). */
function toBody(fields: readonly AnyField[], values: Values, creating: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const v = fieldValue(f, values[f.name] ?? "", creating);
    if (v !== undefined) body[f.name] = v;
  }
  return body;
}

export function FormPage({ group, id }: { group: Group; id?: string | undefined }) {
  const t = useT();
  const creating = id === undefined;
  const fields = group.fields as readonly AnyField[];
  const [values, setValues] = useState<Values>(() => toValues(fields, undefined));
  const customFields = useCustomFields(group.kind);
  const defs = customFields.data ?? [];
  const [custom, setCustom] = useState<CustomFormValues>({});
  const [version, setVersion] = useState<number | undefined>();
  const [conflict, setConflict] = useState(false);
  const submit = useSubmit();
  const itemPath = { path: { [group.idParam]: id ?? "" } };
  const loaded = useLoad(
    async () => (creating ? undefined : ((await ok(anyApi.GET(group.itemPath, { params: itemPath }))) as Item)),
    [group.key, id],
  );

  useEffect(() => {
    if (!loaded.data) return;
    setValues(toValues(fields, loaded.data));
    setVersion(loaded.data.version);
    setConflict(false);
  }, [loaded.data]);
  // The custom fields once both the record and the kind's definitions are in (an edit: the record's
  // values; a create: each field's default); each load sets only its own part of the form.
  useEffect(() => {
    if (!customFields.data || (!creating && !loaded.data)) return;
    const stored = creating
      ? Object.fromEntries(defs.map((d) => [d.name, d.default]))
      : (loaded.data!.custom_fields as Record<string, unknown> | undefined);
    setCustom(toFormValues(defs, stored));
  }, [loaded.data, customFields.data]);

  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      setConflict(false);
      const body = toBody(fields, values, creating);
      if (defs.length > 0) body.custom_fields = toCustomBody(defs, custom, creating);
      try {
        const saved = creating
          ? ((await ok(anyApi.POST(group.listPath, { body }))) as Item)
          : ((await ok(
              anyApi.PATCH(group.itemPath, {
                params: itemPath,
                body,
                headers: version !== undefined ? { "If-Match": `"${version}"` } : {},
              }),
            )) as Item);
        navigate(`/inventory/${group.key}/${saved.id}`);
      } catch (err) {
        if (err instanceof ApiProblem && err.status === 412) setConflict(true);
        throw err;
      }
    });
  };

  if (!creating && loaded.error !== undefined) return <Notice kind="error">{messageOf(loaded.error)}</Notice>;
  if (!creating && !loaded.data) return <p aria-busy="true">{t("common:loading")}</p>;
  const noun = t(GROUP_NOUNS[group.key]);
  const title = creating ? t("inventory:new", { noun }) : t("inventory:edit", { name: loaded.data ? titleOf(group, loaded.data) : noun });
  return (
    <section aria-labelledby="form-title" class="form-page">
      <h1 id="form-title">{title}</h1>
      <form onSubmit={send} noValidate>
        {fields.map((f) => {
          const fid = `field-${f.name}`;
          const value = values[f.name] ?? "";
          const set = (v: string) => setValues((old) => ({ ...old, [f.name]: v }));
          return (
            <Field key={f.name} id={fid} label={t(f.label)} error={submit.fields[f.name]} {...(f.hint ? { hint: t(f.hint) } : {})}>
              {(a11y) => (
                <FieldInput
                  field={f}
                  value={value}
                  onValue={set}
                  a11y={a11y}
                  emptyChoice={creating ? t("inventory:form.default") : t("inventory:form.unchanged")}
                />
              )}
            </Field>
          );
        })}
        <CustomFieldInputs defs={defs} values={custom} onValues={setCustom} errors={submit.fields} />
        <SaveBar
          error={submit.error}
          conflict={conflict}
          onLoadTheirs={() => loaded.reload()}
          busy={submit.busy}
          label={creating ? t("inventory:form.create", { noun }) : t("inventory:form.save")}
        />
      </form>
    </section>
  );
}
