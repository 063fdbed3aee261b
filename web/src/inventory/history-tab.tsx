// A record's History tab: its entries in the audit log (GET /history by object_type and object_id, newest
// first, a page at a time), each with when, who and what, and the fields it changed with their values
// before and after. Whoever may read the record reads its history (docs/adr/0483); the whole audit log
// stays with administrators.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { type Group, isNamedKind } from "./types.ts";

const PAGE = 20;

interface Entry {
  id: number;
  timestamp: string;
  action: string;
  actor_name: string | null;
  diff: unknown;
}

type Fields = Record<string, unknown>;
const isFields = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v);

/** A value as the table shows it: text as is, anything else as JSON, nothing as a dash. */
function shown(value: unknown): string {
  if (value === undefined || value === null || value === "") return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

const empty = (v: unknown) => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

/**
 * The changed fields of an entry, each with its value before and after (one side absent on a create or
 * delete, whose empty fields are left out: they say nothing).
 */
function changes(diff: unknown): { field: string; before: unknown; after: unknown }[] {
  if (!isFields(diff)) return [];
  const before = isFields(diff.before) ? diff.before : {};
  const after = isFields(diff.after) ? diff.after : {};
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !(empty(before[k]) && empty(after[k])));
  const rest = Object.keys(diff).filter((k) => k !== "before" && k !== "after");
  return [
    ...names.map((field) => ({ field, before: before[field], after: after[field] })),
    ...rest.map((field) => ({ field, before: undefined, after: diff[field] })),
  ];
}

function EntryView({ entry }: { entry: Entry }) {
  const t = useT();
  const rows = changes(entry.diff);
  return (
    <li class="history-entry">
      <p>
        <time dateTime={entry.timestamp}>{new Date(entry.timestamp).toLocaleString()}</time> ·{" "}
        <strong>{entry.actor_name ?? t("inventory:history.system")}</strong> · <code>{entry.action}</code>
      </p>
      {rows.length > 0 && (
        <table class="diff">
          <caption class="visually-hidden">{t("inventory:history.changesOf", { action: entry.action })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("inventory:history.field")}</th>
              <th scope="col">{t("inventory:history.before")}</th>
              <th scope="col">{t("inventory:history.after")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.field}>
                <th scope="row">{r.field}</th>
                <td data-label={t("inventory:history.before")}>{shown(r.before)}</td>
                <td data-label={t("inventory:history.after")}>{shown(r.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}

/** The tab is offered for the kinds GET /history names (detail-page.tsx); another kind reads nothing. */
export function HistoryTab({ group, id }: { group: Group; id: string }) {
  const t = useT();
  const [offset, setOffset] = useState(0);
  const kind = group.kind;
  const page = useLoad(async () => {
    if (!isNamedKind(kind)) return { items: [], total: 0 };
    const query = { object_type: kind, object_id: id, limit: String(PAGE), offset: String(offset) };
    return (await ok(api.GET("/api/v1/history", { params: { query } }))) as { items: Entry[]; total: number };
  }, [group.kind, id, offset]);
  if (page.error !== undefined) return <Notice kind="error">{messageOf(page.error)}</Notice>;
  const data = page.data;
  if (!data) return <p aria-busy="true">{t("common:loading")}</p>;
  return (
    <section aria-label={t("inventory:history.label")} aria-busy={page.loading}>
      {data.items.length === 0 && <p class="empty">{t("inventory:history.none")}</p>}
      <ol class="history">
        {data.items.map((e) => (
          <EntryView key={e.id} entry={e} />
        ))}
      </ol>
      {data.total > PAGE && (
        <nav class="pager" aria-label={t("inventory:history.pages")}>
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            {t("inventory:history.newer")}
          </button>
          <span>
            {t("common:pager.range", { from: offset + 1, to: Math.min(offset + data.items.length, data.total), total: data.total })}
          </span>
          <button type="button" disabled={offset + PAGE >= data.total} onClick={() => setOffset(offset + PAGE)}>
            {t("inventory:history.older")}
          </button>
        </nav>
      )}
    </section>
  );
}
