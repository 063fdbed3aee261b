// One relation of a record on its page: the related records, each by its name linking to it (names the
// rows lack, such as a connection's other end, looked up together: names.tsx), and for a role with the
// relation's write scope, a search picker to add one and a Remove button on each (the relation's own API
// routes; the server's refusal, a dependency cycle or a duplicate, is shown in the section).
import { useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice } from "../components/field.tsx";
import { RefPicker } from "../components/ref-picker.tsx";
import { Status } from "../components/status.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { GROUP_NOUNS } from "./group-nouns.ts";
import { GROUPS } from "./groups.ts";
import { cell } from "./list-page.tsx";
import { RefLink, useNames } from "./names.tsx";
import type { Relation } from "./types.ts";

type Row = Record<string, unknown>;

export function RelationList({ relation, id }: { relation: Relation; id: string }) {
  const t = useT();
  const label = t(relation.label);
  const session = useSession();
  const rows = useLoad(async () => {
    const answer = (await ok(anyApi.GET(relation.path, { params: relation.params(id) }))) as Row[] | { items: Row[]; total: number };
    return Array.isArray(answer) ? { items: answer, total: answer.length } : answer;
  }, [relation.path, id]);
  const otherId = (r: Row) => r[relation.idFieldOf?.(r, id) ?? relation.idField];
  const nameField = relation.nameField ?? "name";
  const nameOf = useNames(
    (rows.data?.items ?? []).filter((r) => r[nameField] == null).map((r) => ({ group: relation.group, id: otherId(r) })),
  );
  const edit = relation.edit && session.can(relation.edit.scope) ? relation.edit : undefined;
  const [picked, setPicked] = useState("");
  const submit = useSubmit();
  // The English label names the form's field, so its id is the same in every language.
  const slug = t(relation.label, { lng: "en" })
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");

  const add = (e: Event) => {
    e.preventDefault();
    if (!edit || picked === "") return;
    void submit.run(async () => {
      await ok(anyApi.POST(edit.add.path, { params: edit.add.params(id), body: edit.add.body(Number(picked)) }));
      setPicked("");
      rows.reload();
    });
  };
  const remove = (r: Row) => {
    if (!edit) return;
    void submit.run(async () => {
      await ok(anyApi.DELETE(edit.remove.path, { params: edit.remove.params(id, r) }));
      rows.reload();
    });
  };

  return (
    <section class="relation" aria-label={label}>
      <h2>
        {label} {rows.data && <span class="count">({rows.data.total})</span>}
      </h2>
      {rows.error !== undefined && <Notice kind="error">{messageOf(rows.error)}</Notice>}
      {rows.data && rows.data.items.length === 0 && <p class="empty">{t("inventory:relation.none")}</p>}
      <ul>
        {rows.data?.items.map((r) => {
          const name = (r[nameField] as string | null | undefined) ?? nameOf(relation.group, otherId(r));
          return (
            <li key={String(otherId(r)) + String(r.id)}>
              <RefLink group={relation.group} id={otherId(r)} name={name} />
              {relation.show.map((k) =>
                k === "status" ? (
                  <Status key={k} value={r[k] as string} />
                ) : (
                  <span key={k} class="meta">
                    {cell(r[k])}
                  </span>
                ),
              )}
              {edit && (
                <button
                  type="button"
                  class="link"
                  aria-label={t("inventory:relation.removeFrom", { name: name ?? `#${String(otherId(r))}`, relation: label })}
                  disabled={submit.busy}
                  onClick={() => remove(r)}
                >
                  {t("inventory:relation.remove")}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {rows.data && rows.data.total > rows.data.items.length && (
        <p class="meta">{t("inventory:relation.showing", { shown: rows.data.items.length, total: rows.data.total })}</p>
      )}
      {edit && (
        <form class="relation-add" onSubmit={add} noValidate>
          <Field
            id={`add-${slug}`}
            label={t("inventory:relation.addNoun", { noun: t(GROUP_NOUNS[edit.pick]) })}
            error={Object.values(submit.fields)[0]}
          >
            {(a11y) => <RefPicker source={GROUPS[edit.pick]} value={picked} onValue={setPicked} a11y={a11y} />}
          </Field>
          <button type="submit" disabled={picked === "" || submit.busy}>
            {t("inventory:relation.add")}
          </button>
        </form>
      )}
      {Object.keys(submit.fields).length === 0 && <Notice kind="error">{submit.error}</Notice>}
    </section>
  );
}
