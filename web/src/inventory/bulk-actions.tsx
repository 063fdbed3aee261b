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
import { FieldInput, fieldValue } from "./field-input.tsx";
import type { Group } from "./types.ts";

/** What the operator types to confirm a bulk delete. */
export const CONFIRM_WORD = "delete";

export interface Selected {
  id: number;
  name: string;
}

export function plural(n: number, noun: string): string {
  if (n === 1) return `1 ${noun}`;
  const many = noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : /(s|x|sh|ch)$/.test(noun) ? `${noun}es` : `${noun}s`;
  return `${n.toLocaleString()} ${many}`;
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
  const [tag, setTag] = useState("");
  const [mode, setMode] = useState<"add" | "remove">("add");
  const submit = useSubmit();
  const count = plural(selected.length, group.noun);
  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      const body = { ids: selected.map((s) => s.id), [mode]: [tag.trim()] };
      const answer = (await ok(anyApi.POST(`${group.listPath}/bulk-tags`, { body }))) as { changed: number[]; unchanged: number[] };
      const verb = mode === "add" ? "added to" : "removed from";
      onDone(
        `Tag "${tag.trim()}" ${verb} ${plural(answer.changed.length, group.noun)}${answer.unchanged.length ? ` (${answer.unchanged.length} already as asked)` : ""}.`,
      );
    });
  };
  return (
    <Dialog title={`Tag ${count}`} onClose={onClose}>
      <form onSubmit={send} noValidate>
        <fieldset class="choice">
          <legend>Action</legend>
          <label>
            <input type="radio" name="tag-mode" checked={mode === "add"} onChange={() => setMode("add")} /> Add the tag
          </label>
          <label>
            <input type="radio" name="tag-mode" checked={mode === "remove"} onChange={() => setMode("remove")} /> Remove the tag
          </label>
        </fieldset>
        <Field id="bulk-tag" label="Tag" error={submit.fields[mode] ?? submit.fields[`${mode}.0`]}>
          {(a11y) => <input {...a11y} value={tag} autoFocus onInput={(e) => setTag((e.currentTarget as HTMLInputElement).value)} />}
        </Field>
        <Refusal submit={submit} selected={selected} />
        <div class="actions">
          <button type="submit" class="primary" disabled={submit.busy || tag.trim() === ""}>
            {mode === "add" ? `Add tag to ${count}` : `Remove tag from ${count}`}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
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
  const fields = editable(group);
  const [name, setName] = useState(fields[0]?.name ?? "");
  const [raw, setRaw] = useState("");
  const submit = useSubmit();
  const field = fields.find((f) => f.name === name);
  const count = plural(selected.length, group.noun);
  // An emptied field clears it on every record (null); a select's empty choice sets nothing.
  const value = field ? fieldValue(field, raw, false) : undefined;
  const send = (e: Event) => {
    e.preventDefault();
    if (!field || value === undefined) return;
    void submit.run(async () => {
      await ok(anyApi.POST(`${group.listPath}/bulk-update`, { body: { ids: selected.map((s) => s.id), set: { [field.name]: value } } }));
      onDone(value === null ? `${field.label} cleared on ${count}.` : `${field.label} set on ${count}.`);
    });
  };
  return (
    <Dialog title={`Edit ${count}`} onClose={onClose}>
      <form onSubmit={send} noValidate>
        <Field id="bulk-edit-field" label="Field">
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
                  {f.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {field && (
          <Field
            key={field.name}
            id="bulk-edit-value"
            label={`New ${field.label.toLowerCase()}`}
            error={submit.fields[`set.${field.name}`]}
            hint={field.kind === "select" ? "Choose a value" : "Left empty, it is cleared on every one"}
          >
            {(a11y) => <FieldInput field={field} value={raw} onValue={setRaw} a11y={a11y} emptyChoice="Choose…" />}
          </Field>
        )}
        <Refusal submit={submit} selected={selected} />
        <div class="actions">
          <button type="submit" class="primary" disabled={submit.busy || value === undefined}>
            {value === null ? `Clear on ${count}` : `Set on ${count}`}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
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
  const [word, setWord] = useState("");
  const key = useRef(idempotencyKey()).current;
  const submit = useSubmit();
  const count = plural(selected.length, group.noun);
  const confirmed = word.trim().toLowerCase() === CONFIRM_WORD;
  const send = (e: Event) => {
    e.preventDefault();
    if (!confirmed) return;
    void submit.run(async () => {
      const headers = { "x-svc-confirmation": `bulk-delete-${group.listPath.split("/").pop()}`, "idempotency-key": key };
      await ok(anyApi.POST(`${group.listPath}/bulk-delete`, { body: { ids: selected.map((s) => s.id) }, headers }));
      onDone(`Deleted ${count}.`);
    });
  };
  const shown = selected.slice(0, 10);
  return (
    <Dialog title={`Delete ${count}?`} onClose={onClose}>
      <form onSubmit={send} noValidate>
        <p>This deletes {count} and cannot be undone. All are deleted or, when one cannot be, none is.</p>
        <ul class="bulk-names">
          {shown.map((s) => (
            <li key={s.id}>{s.name}</li>
          ))}
          {selected.length > shown.length && <li>and {selected.length - shown.length} more</li>}
        </ul>
        <Field id="bulk-confirm" label={`Type "${CONFIRM_WORD}" to confirm`}>
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
            {submit.busy ? "Deleting…" : `Delete ${count}`}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
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
  const rights = useBulkRights(group);
  const [open, setOpen] = useState<"tag" | "edit" | "delete" | undefined>();
  const done = (message: string) => {
    setOpen(undefined);
    onDone(message);
  };
  return (
    <section class="bulk-bar" aria-label="Bulk actions">
      <span aria-live="polite">{plural(selected.length, group.noun)} selected</span>
      {rights.tag && (
        <button type="button" onClick={() => setOpen("tag")}>
          Tag…
        </button>
      )}
      {rights.edit && (
        <button type="button" onClick={() => setOpen("edit")}>
          Edit field…
        </button>
      )}
      {rights.remove && (
        <button type="button" class="danger" onClick={() => setOpen("delete")}>
          Delete…
        </button>
      )}
      {selected.length < onPage && (
        <button type="button" class="link" onClick={onSelectAll}>
          Select all {onPage} on this page
        </button>
      )}
      <button type="button" class="link" onClick={onClear}>
        Clear selection
      </button>
      {open === "tag" && <TagDialog group={group} selected={selected} onClose={() => setOpen(undefined)} onDone={done} />}
      {open === "edit" && <EditDialog group={group} selected={selected} onClose={() => setOpen(undefined)} onDone={done} />}
      {open === "delete" && <DeleteDialog group={group} selected={selected} onClose={() => setOpen(undefined)} onDone={done} />}
    </section>
  );
}
