// Bulk actions on the rows selected in a list: add or remove a tag on all of them, set one field on all
// of them (POST {list}/bulk-update, docs/adr/0470), or delete them all.
// Each is one request to the resource's bulk route, all or nothing on the server (docs/adr/ 0259-0261,
// "Bulk inventory operations"). Delete asks for the confirmation word first and only then sends the
// spec 5.6 confirmation headers, with one idempotency key per dialog so a retry never deletes twice.
import { useRef, useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { type Submit, useSubmit } from "../auth/use-submit.ts";
import { Dialog } from "../components/dialog.tsx";
import { Field, Notice } from "../components/field.tsx";
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { FieldInput, fieldValue } from "./field-input.tsx";
import { GROUP_COUNTS } from "./group-nouns.ts";
import type { Group } from "./types.ts";

/** What the operator types to confirm a bulk delete. */
export const CONFIRM_WORD = "delete";

export interface Selected {
  id: number;
  name: string;
}

/** "3 hardware nodes", in the active language's plural form. */
export function plural(n: number, group: Pick<Group, "key">): string {
  return t(GROUP_COUNTS[group.key], { count: n });
}

/** Who may use which bulk action on a group: none at all means no selection column. */
export function useBulkRights(group: Group): { tag: boolean; edit: boolean; remove: boolean } {
  const session = useSession();
  return {
    tag: Boolean(group.bulk?.tags) && session.can(group.writeScope),
    edit: group.bulk !== undefined && session.can(group.writeScope),
    remove: group.bulk !== undefined && session.can(group.deleteScope),
  };
}

/** An idempotency key: visible ASCII, 32 hex digits (crypto.randomUUID needs a secure context; this does not). */
function idempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The server's answer when it refused the selection: its summary and, for each refused record (an issue at
 * `ids.<index>`), the record's name with the reason; any other failure as its sentence.
 */
function Refusal({ submit, selected }: { submit: Submit; selected: Selected[] }) {
  const refused = selected.flatMap((s, i) => (submit.fields[`ids.${i}`] ? [{ ...s, reason: submit.fields[`ids.${i}`]! }] : []));
  if (refused.length === 0) return <Notice kind="error">{submit.error}</Notice>;
  return (
    <div class="notice notice-error" role="alert">
      <p>{submit.fields.ids}</p>
      <ul>
        {refused.map((r) => (
          <li key={r.id}>
            <strong>{r.name}</strong>: {r.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}

function TagDialog({
  group,
  selected,
  onClose,
  onDone,
}: {
  group: Group;
  selected: Selected[];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const t = useT();
  const [tag, setTag] = useState("");
  const [mode, setMode] = useState<"add" | "remove">("add");
  const submit = useSubmit();
  const count = plural(selected.length, group);
  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      const body = { ids: selected.map((s) => s.id), [mode]: [tag.trim()] };
      const answer = (await ok(anyApi.POST(`${group.listPath}/bulk-tags`, { body }))) as { changed: number[]; unchanged: number[] };
      const vars = {
        tag: tag.trim(),
        records: plural(answer.changed.length, group),
        unchanged: answer.unchanged.length ? t("inventory:bulk.tagUnchanged", { count: answer.unchanged.length }) : "",
      };
      onDone(mode === "add" ? t("inventory:bulk.tagAdded", vars) : t("inventory:bulk.tagRemoved", vars));
    });
  };
  return (
    <Dialog title={t("inventory:bulk.tagTitle", { records: count })} onClose={onClose}>
      <form onSubmit={send} noValidate>
        <fieldset class="choice">
          <legend>{t("inventory:bulk.action")}</legend>
          <label>
            <input type="radio" name="tag-mode" checked={mode === "add"} onChange={() => setMode("add")} /> {t("inventory:bulk.addTag")}
          </label>
          <label>
            <input type="radio" name="tag-mode" checked={mode === "remove"} onChange={() => setMode("remove")} />{" "}
            {t("inventory:bulk.removeTag")}
          </label>
        </fieldset>
        <Field id="bulk-tag" label={t("inventory:bulk.tag")} error={submit.fields[mode] ?? submit.fields[`${mode}.0`]}>
          {(a11y) => <input {...a11y} value={tag} autoFocus onInput={(e) => setTag((e.currentTarget as HTMLInputElement).value)} />}
        </Field>
        <Refusal submit={submit} selected={selected} />
        <div class="actions">
          <button type="submit" class="primary" disabled={submit.busy || tag.trim() === ""}>
            {mode === "add" ? t("inventory:bulk.addTagTo", { records: count }) : t("inventory:bulk.removeTagFrom", { records: count })}
          </button>
          <button type="button" onClick={onClose}>
            {t("common:cancel")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The fields a bulk edit can set: not what names a record (each has its own), nor tags (the Tag dialog). */
const editable = (group: Group) => group.fields.filter((f) => f.name !== (group.titleField ?? "name") && f.kind !== "tags");

function EditDialog({
  group,
  selected,
  onClose,
  onDone,
}: {
  group: Group;
  selected: Selected[];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const t = useT();
  const fields = editable(group);
  const [name, setName] = useState(fields[0]?.name ?? "");
  const [raw, setRaw] = useState("");
  const submit = useSubmit();
  const field = fields.find((f) => f.name === name);
  const count = plural(selected.length, group);
  // An emptied field clears it on every record (null); a select's empty choice sets nothing.
  const value = field ? fieldValue(field, raw, false) : undefined;
  const send = (e: Event) => {
    e.preventDefault();
    if (!field || value === undefined) return;
    void submit.run(async () => {
      await ok(anyApi.POST(`${group.listPath}/bulk-update`, { body: { ids: selected.map((s) => s.id), set: { [field.name]: value } } }));
      const vars = { field: t(field.label), records: count };
      onDone(value === null ? t("inventory:bulk.cleared", vars) : t("inventory:bulk.set", vars));
    });
  };
  return (
    <Dialog title={t("inventory:bulk.editTitle", { records: count })} onClose={onClose}>
      <form onSubmit={send} noValidate>
        <Field id="bulk-edit-field" label={t("inventory:bulk.field")}>
          {(a11y) => (
            <select
              {...a11y}
              value={name}
              onChange={(e) => {
                setName((e.currentTarget as HTMLSelectElement).value);
                setRaw("");
              }}
            >
              {fields.map((f) => (
                <option key={f.name} value={f.name}>
                  {t(f.label)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {field && (
          <Field
            key={field.name}
            id="bulk-edit-value"
            label={t("inventory:bulk.newValue", { field: t(field.label) })}
            error={submit.fields[`set.${field.name}`]}
            hint={field.kind === "select" ? t("inventory:bulk.chooseValue") : t("inventory:bulk.emptyClears")}
          >
            {(a11y) => <FieldInput field={field} value={raw} onValue={setRaw} a11y={a11y} emptyChoice={t("inventory:bulk.choose")} />}
          </Field>
        )}
        <Refusal submit={submit} selected={selected} />
        <div class="actions">
          <button type="submit" class="primary" disabled={submit.busy || value === undefined}>
            {value === null ? t("inventory:bulk.clearOn", { records: count }) : t("inventory:bulk.setOn", { records: count })}
          </button>
          <button type="button" onClick={onClose}>
            {t("common:cancel")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function DeleteDialog({
  group,
  selected,
  onClose,
  onDone,
}: {
  group: Group;
  selected: Selected[];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const t = useT();
  const [word, setWord] = useState("");
  const key = useRef(idempotencyKey()).current;
  const submit = useSubmit();
  const count = plural(selected.length, group);
  const confirmed = word.trim().toLowerCase() === CONFIRM_WORD;
  const send = (e: Event) => {
    e.preventDefault();
    if (!confirmed) return;
    void submit.run(async () => {
      const headers = { "x-svc-confirmation": `bulk-delete-${group.listPath.split("/").pop()}`, "idempotency-key": key };
      await ok(anyApi.POST(`${group.listPath}/bulk-delete`, { body: { ids: selected.map((s) => s.id) }, headers }));
      onDone(t("inventory:bulk.deleted", { records: count }));
    });
  };
  const shown = selected.slice(0, 10);
  return (
    <Dialog title={t("inventory:bulk.deleteTitle", { records: count })} onClose={onClose}>
      <form onSubmit={send} noValidate>
        <p>{t("inventory:bulk.deleteText", { records: count })}</p>
        <ul class="bulk-names">
          {shown.map((s) => (
            <li key={s.id}>{s.name}</li>
          ))}
          {selected.length > shown.length && <li>{t("inventory:bulk.more", { count: selected.length - shown.length })}</li>}
        </ul>
        <Field id="bulk-confirm" label={t("inventory:bulk.typeToConfirm", { word: CONFIRM_WORD })}>
          {(a11y) => (
            <input
              {...a11y}
              value={word}
              autoComplete="off"
              autoFocus
              onInput={(e) => setWord((e.currentTarget as HTMLInputElement).value)}
            />
          )}
        </Field>
        <Refusal submit={submit} selected={selected} />
        <div class="actions">
          <button type="submit" class="danger" disabled={!confirmed || submit.busy}>
            {submit.busy ? t("inventory:bulk.deleting") : t("inventory:bulk.deleteCount", { records: count })}
          </button>
          <button type="button" onClick={onClose}>
            {t("common:cancel")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export interface BulkBarProps {
  group: Group;
  selected: Selected[];
  /** Rows on the page: the bar offers to select them all (a phone shows no header checkbox). */
  onPage: number;
  onSelectAll: () => void;
  onClear: () => void;
  /** Gets the sentence to show once an action succeeded. */
  onDone: (message: string) => void;
}

/** The bar over a list while rows are selected. */
export function BulkBar({ group, selected, onPage, onSelectAll, onClear, onDone }: BulkBarProps) {
  const t = useT();
  const rights = useBulkRights(group);
  const [open, setOpen] = useState<"tag" | "edit" | "delete" | undefined>();
  const done = (message: string) => {
    setOpen(undefined);
    onDone(message);
  };
  return (
    <section class="bulk-bar" aria-label={t("inventory:bulk.label")}>
      <span aria-live="polite">{t("inventory:bulk.selected", { records: plural(selected.length, group) })}</span>
      {rights.tag && (
        <button type="button" onClick={() => setOpen("tag")}>
          {t("inventory:bulk.tagMenu")}
        </button>
      )}
      {rights.edit && (
        <button type="button" onClick={() => setOpen("edit")}>
          {t("inventory:bulk.editMenu")}
        </button>
      )}
      {rights.remove && (
        <button type="button" class="danger" onClick={() => setOpen("delete")}>
          {t("inventory:bulk.deleteMenu")}
        </button>
      )}
      {selected.length < onPage && (
        <button type="button" class="link" onClick={onSelectAll}>
          {t("inventory:bulk.selectAll", { count: onPage })}
        </button>
      )}
      <button type="button" class="link" onClick={onClear}>
        {t("inventory:bulk.clear")}
      </button>
      {open === "tag" && <TagDialog group={group} selected={selected} onClose={() => setOpen(undefined)} onDone={done} />}
      {open === "edit" && <EditDialog group={group} selected={selected} onClose={() => setOpen(undefined)} onDone={done} />}
      {open === "delete" && <DeleteDialog group={group} selected={selected} onClose={() => setOpen(undefined)} onDone={done} />}
    </section>
  );
}
