// A record's Journal tab (docs/journal.md): its dated Markdown notes, newest first, each with its kind
// shown by colour and by an icon with a label (never colour alone), who wrote it and when. The note's
// text is the API's `comments_html`: the Markdown rendered and sanitised on the server by
// shared/domain/markdown.ts (no raw HTML, scripts, handlers, styles or images; only http(s) and mailto
// links), the only HTML ever set here. Adding a note needs the kind's write scope; deleting one, being
// its author or an administrator, with If-Match (the server checks both again).
import type { LucideIcon } from "lucide-preact";
import { CircleCheck, Info, OctagonAlert, TriangleAlert } from "lucide-preact";
import { useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice } from "../components/field.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { type Group, isNamedKind, readScopeOf } from "./types.ts";

const PAGE = 50;
const ADMIN = "admin:*";

export const JOURNAL_KINDS = ["info", "success", "warning", "danger"] as const;
type JournalKind = (typeof JOURNAL_KINDS)[number];

/** Each kind's icon and label: a kind is never told by its colour alone. */
const KIND_SHOWN: Record<JournalKind, { Icon: LucideIcon; label: string }> = {
  info: { Icon: Info, label: i18nKey("journal:kind.info") },
  success: { Icon: CircleCheck, label: i18nKey("journal:kind.success") },
  warning: { Icon: TriangleAlert, label: i18nKey("journal:kind.warning") },
  danger: { Icon: OctagonAlert, label: i18nKey("journal:kind.danger") },
};

interface Entry {
  id: number;
  kind: JournalKind;
  comments_html: string;
  created_by: number | null;
  created_by_name: string | null;
  created_at: string;
  version: number;
}

/** Whether a group's records have a journal (the kinds GET /inventory/names knows). */
export const hasJournal = (group: Group): boolean => isNamedKind(group.kind);

export function JournalTab({ group, id }: { group: Group; id: string }) {
  const t = useT();
  const session = useSession();
  const canRead = session.can(readScopeOf(group));
  const canWrite = session.can(group.writeScope);
  const isAdmin = session.can(ADMIN);
  const [kind, setKind] = useState<JournalKind>("info");
  const [text, setText] = useState("");
  const [removeError, setRemoveError] = useState<string | undefined>();
  const submit = useSubmit();
  const list = useLoad(async () => {
    if (!canRead) return undefined;
    const query = { object_type: group.kind, object_id: id, limit: String(PAGE) };
    return (await ok(anyApi.GET("/api/v1/journal", { params: { query } }))) as { items: Entry[]; total: number };
  }, [group.kind, id, canRead]);

  const add = (ev: Event) => {
    ev.preventDefault();
    void submit.run(async () => {
      await ok(anyApi.POST("/api/v1/journal", { body: { object_type: group.kind, object_id: Number(id), kind, comments: text } }));
      setText("");
      setKind("info");
      list.reload();
    });
  };
  const remove = async (entry: Entry) => {
    if (!confirm(t("journal:confirmDelete"))) return;
    setRemoveError(undefined);
    try {
      await ok(
        anyApi.DELETE("/api/v1/journal/{journal_entry_id}", {
          params: { path: { journal_entry_id: String(entry.id) } },
          headers: { "If-Match": `"${entry.version}"` },
        }),
      );
    } catch (e) {
      setRemoveError(messageOf(e));
    }
    list.reload();
  };

  if (!canRead) return <p class="empty">{t("journal:noScope")}</p>;
  if (list.error !== undefined) return <Notice kind="error">{messageOf(list.error)}</Notice>;
  const data = list.data;
  if (!data) return <p aria-busy="true">{t("common:loading")}</p>;
  return (
    <section aria-labelledby="journal-title" aria-busy={list.loading}>
      <h2 id="journal-title">{t("journal:title")}</h2>
      <Notice kind="error">{removeError}</Notice>
      {data.items.length === 0 && <p class="empty">{t("journal:none")}</p>}
      <ol class="journal">
        {data.items.map((e) => {
          const { Icon, label } = KIND_SHOWN[e.kind] ?? KIND_SHOWN.info;
          const mine = e.created_by !== null && e.created_by === session.user.id;
          return (
            <li key={e.id} class={`journal-entry journal-${e.kind}`} data-entry={e.id}>
              <p class="meta">
                <span class="journal-kind">
                  <Icon size={16} aria-hidden="true" /> {t(label)}
                </span>{" "}
                · <time dateTime={e.created_at}>{new Date(e.created_at).toLocaleString()}</time> ·{" "}
                <strong>
                  {e.created_by_name ??
                    (mine
                      ? t("journal:you")
                      : e.created_by === null
                        ? t("journal:unknownAuthor")
                        : t("journal:user", { id: e.created_by }))}
                </strong>
                {canWrite && (mine || isAdmin) && (
                  <button type="button" class="link danger" onClick={() => void remove(e)}>
                    {t("journal:delete")}
                  </button>
                )}
              </p>
              {/* Rendered and sanitised by the server (shared/domain/markdown.ts); only this field is set as HTML. */}
              <div class="journal-body" dangerouslySetInnerHTML={{ __html: e.comments_html }} />
            </li>
          );
        })}
      </ol>
      {data.total > data.items.length && <p class="hint">{t("journal:more", { shown: data.items.length, total: data.total })}</p>}
      {canWrite && (
        <form class="card" aria-labelledby="journal-add-title" onSubmit={add} noValidate>
          <h3 id="journal-add-title">{t("journal:add")}</h3>
          <Field id="journal-kind" label={t("journal:kindLabel")} error={submit.fields.kind}>
            {(a11y) => (
              <select {...a11y} value={kind} onChange={(ev) => setKind((ev.currentTarget as HTMLSelectElement).value as JournalKind)}>
                {JOURNAL_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {t(KIND_SHOWN[k].label)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="journal-comments" label={t("journal:comments")} hint={t("journal:markdownHint")} error={submit.fields.comments}>
            {(a11y) => (
              <textarea {...a11y} rows={4} value={text} onInput={(ev) => setText((ev.currentTarget as HTMLTextAreaElement).value)} />
            )}
          </Field>
          <Notice kind="error">{submit.errorBesides(["kind", "comments"])}</Notice>
          <button type="submit" class="primary" disabled={submit.busy}>
            {t("journal:save")}
          </button>
        </form>
      )}
    </section>
  );
}
