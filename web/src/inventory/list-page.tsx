// A group's list over the list envelope (docs/architecture.md, API contracts): search, filters (a related
// record's through a search picker), sort and paging, all in the URL so a list can be bookmarked and the
// back button works. Paged by the server: one page is all that is loaded. The columns shown are chosen
// per list (column-choice.tsx); a reference column shows the record's name, looked up for the whole page
// at once (names.tsx); "Export CSV" downloads every record the filters select (GET {list}/export.csv),
// "Import" opens the bulk import (import-page.tsx, POST {list}/import.csv).
import { useEffect, useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { RefPicker } from "../components/ref-picker.tsx";
import { SelectAllHeader } from "../components/select-all.tsx";
import { Status } from "../components/status.tsx";
import { Link, navigate, type Location } from "../router.tsx";
import { useT } from "../i18n/use-t.ts";
import { GROUP_TITLES } from "../shell/group-titles.ts";
import { useLoad } from "../use-load.ts";
import { BulkBar, useBulkRights } from "./bulk-actions.tsx";
import { ColumnsMenu, useColumnChoice } from "./column-choice.tsx";
import { GROUP_NOUNS } from "./group-nouns.ts";
import { GROUPS } from "./groups.ts";
import { RefLink, useNames } from "./names.tsx";
import type { AnyColumn, Group } from "./types.ts";
import { EmptyList } from "./empty-list.tsx";
import { cell, customValue, useCustomFields, withCustomColumns } from "./custom-fields.tsx";

const PAGE = 25;

interface Envelope {
  items: Record<string, unknown>[];
  total: number;
  limit: number;
  offset: number;
}

/** A value as text (custom-fields.tsx, where it lives so that file needs nothing of this one). */
export { cell };

/** What names a record of the group (its `name`, or the group's title field: an IP record's address). */
export function titleOf(group: Group, item: Record<string, unknown>): string {
  return cell(item[group.titleField ?? "name"]);
}

/** A cell after the first: a status with its shape, a reference as a link by name, anything else as text. */
function Cell({ column: c, item, nameOf }: { column: AnyColumn; item: Record<string, unknown>; nameOf: ReturnType<typeof useNames> }) {
  if (c.name.startsWith("cf_")) return <>{cell(customValue(item, c.name))}</>;
  if (c.name.endsWith("status")) return <Status value={item[c.name] as string} />;
  if (c.ref && c.idField)
    return item[c.idField] == null ? <>—</> : <RefLink group={c.ref} id={item[c.idField]} name={cell(item[c.name])} />;
  if (c.ref) return item[c.name] == null ? <>—</> : <RefLink group={c.ref} id={item[c.name]} name={nameOf(c.ref, item[c.name])} />;
  return <>{cell(item[c.name])}</>;
}

export function ListPage({ group: declared, loc }: { group: Group; loc: Location }) {
  const t = useT();
  // The kind's custom fields are columns, sorts and filters of its list too (cf_<name>).
  const customFields = useCustomFields(declared.kind);
  const group = withCustomColumns(declared, customFields.data ?? []);
  const title = t(GROUP_TITLES[group.key]);
  const session = useSession();
  const q = loc.query;
  const sort = q.get("sort") ?? group.titleField ?? "name";
  const direction = q.get("direction") === "desc" ? "desc" : "asc";
  const offset = Math.max(0, Number(q.get("offset") ?? 0) || 0);
  const [search, setSearch] = useState(q.get("q") ?? "");
  useEffect(() => setSearch(q.get("q") ?? ""), [group.key]);

  const setQuery = (changes: Record<string, string | undefined>, resetOffset = true) => {
    const next = new URLSearchParams(q);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === "") next.delete(k);
      else next.set(k, v);
    }
    if (resetOffset && !("offset" in changes)) next.delete("offset");
    navigate(`${loc.path}?${next}`, { replace: true });
  };

  // Search as the user types, a moment after the last key.
  useEffect(() => {
    if (search === (q.get("q") ?? "")) return;
    const timer = setTimeout(() => setQuery({ q: search.trim() }), 300);
    return () => clearTimeout(timer);
  }, [search]);

  const query: Record<string, string> = { limit: String(PAGE), offset: String(offset), sort, direction };
  for (const f of group.filters) {
    const v = q.get(f.name);
    if (v) query[f.name] = v;
  }
  const text = q.get("q");
  if (text) query.q = text;
  const key = JSON.stringify(query);
  const page = useLoad(() => ok(anyApi.GET(group.listPath, { params: { query } })) as Promise<Envelope>, [group.key, key]);
  // Bulk selection is of rows on the shown page: another page, filter or sort starts a new one.
  const rights = useBulkRights(group);
  const selecting = rights.tag || rights.edit || rights.remove;
  const columns = useColumnChoice(group);
  // The ids a reference column holds (site_id), named for the whole page in one request.
  const nameOf = useNames(
    columns.shown.flatMap((c) => (c.ref && !c.idField ? (page.data?.items ?? []).map((i) => ({ group: c.ref!, id: i[c.name] })) : [])),
  );
  const exportQuery = new URLSearchParams({ ...query, columns: columns.shown.map((c) => c.name).join(",") });
  exportQuery.delete("limit");
  exportQuery.delete("offset");
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [done, setDone] = useState<string | undefined>();
  useEffect(() => setSelected(new Set()), [group.key, key]);

  const sortBy = (name: string) =>
    (group.sorts as readonly string[]).includes(name)
      ? () => setQuery({ sort: name, direction: sort === name && direction === "asc" ? "desc" : "asc" })
      : undefined;
  const data = page.data;
  const base = `/inventory/${group.key}`;
  const pageIds = data?.items.map((i) => Number(i.id)) ?? [];
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  // A page emptied by a bulk delete (or a link past the end) steps back to the last page there is.
  useEffect(() => {
    if (data && data.items.length === 0 && offset > 0 && data.total > 0)
      setQuery({ offset: String(Math.floor((data.total - 1) / PAGE) * PAGE) }, false);
  }, [data]);
  const toggle = (id: number) =>
    setSelected((old) => {
      const next = new Set(old);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <section aria-labelledby="list-title">
      <header class="page-head">
        <h1 id="list-title">{title}</h1>
        {session.can(group.writeScope) && (
          <Link class="button primary" href={`${base}/new`}>
            {t("inventory:new", { noun: t(GROUP_NOUNS[group.key]) })}
          </Link>
        )}
      </header>
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is not in Preact's element types yet; a form with role="search" is its equivalent */}
      <form
        class="toolbar"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery({ q: search.trim() });
        }}
      >
        <label class="grow">
          <span class="visually-hidden">{t("inventory:list.search", { title })}</span>
          <input
            type="search"
            placeholder={t("inventory:list.search", { title })}
            value={search}
            onInput={(e) => setSearch((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
        {group.filters.map((f) =>
          f.ref ? (
            <div key={f.name} class="filter filter-ref">
              <label for={`filter-${f.name}`}>{f.text ?? t(f.label)}</label>
              <RefPicker
                source={GROUPS[f.ref]}
                value={q.get(f.name) ?? ""}
                onValue={(v) => setQuery({ [f.name]: v })}
                a11y={{ id: `filter-${f.name}`, "aria-invalid": false }}
              />
            </div>
          ) : (
            // biome-ignore lint/a11y/noLabelWithoutControl: the label holds a <select> or an <input>, chosen below
            <label key={f.name} class="filter">
              <span>{f.text ?? t(f.label)}</span>
              {f.options ? (
                <select value={q.get(f.name) ?? ""} onChange={(e) => setQuery({ [f.name]: (e.currentTarget as HTMLSelectElement).value })}>
                  <option value="">{t("inventory:list.any")}</option>
                  {f.options.map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  value={q.get(f.name) ?? ""}
                  size={10}
                  onChange={(e) => setQuery({ [f.name]: (e.currentTarget as HTMLInputElement).value.trim() })}
                />
              )}
            </label>
          ),
        )}
        <label class="filter">
          <span>{t("inventory:list.sort")}</span>
          <select
            value={`${sort}:${direction}`}
            onChange={(e) => {
              const [s, d] = (e.currentTarget as HTMLSelectElement).value.split(":");
              setQuery({ sort: s, direction: d });
            }}
          >
            {group.sorts.flatMap((s) => [
              <option key={`${s}:asc`} value={`${s}:asc`}>
                {s.replace(/_/g, " ")} ↑
              </option>,
              <option key={`${s}:desc`} value={`${s}:desc`}>
                {s.replace(/_/g, " ")} ↓
              </option>,
            ])}
          </select>
        </label>
        <ColumnsMenu group={group} choice={columns} />
        <a class="button" href={`${group.listPath}/export.csv?${exportQuery}`} download>
          {t("inventory:list.export")}
        </a>
        {rights.edit && (
          <Link class="button" href={`${base}/import`}>
            {t("csv-import:button")}
          </Link>
        )}
      </form>
      {page.error !== undefined && <Notice kind="error">{messageOf(page.error)}</Notice>}
      <Notice kind="success">{done}</Notice>
      {selecting && selected.size > 0 && (
        <BulkBar
          group={group}
          selected={(data?.items ?? [])
            .filter((i) => selected.has(Number(i.id)))
            .map((i) => ({ id: Number(i.id), name: titleOf(group, i) }))}
          onPage={pageIds.length}
          onSelectAll={() => setSelected(new Set(pageIds))}
          onClear={() => setSelected(new Set())}
          onDone={(message) => {
            setDone(message);
            setSelected(new Set());
            page.reload();
          }}
        />
      )}
      <div class="table-wrap" aria-busy={page.loading}>
        <table>
          <caption class="visually-hidden">
            {direction === "asc" ? t("inventory:list.sortedAsc", { title, sort }) : t("inventory:list.sortedDesc", { title, sort })}
          </caption>
          <thead>
            <tr>
              {selecting && (
                <SelectAllHeader
                  label={t("inventory:list.selectPage")}
                  all={allOnPage}
                  some={pageIds.some((id) => selected.has(id))}
                  onToggle={() => setSelected(allOnPage ? new Set() : new Set(pageIds))}
                />
              )}
              {columns.shown.map((c) => {
                const onSort = sortBy(c.name);
                const active = sort === c.name;
                return (
                  <th key={c.name} scope="col" aria-sort={active ? (direction === "asc" ? "ascending" : "descending") : undefined}>
                    {onSort ? (
                      <button type="button" class="sort" onClick={onSort}>
                        {c.text ?? t(c.label)}
                        <span aria-hidden="true">{active ? (direction === "asc" ? " ▲" : " ▼") : ""}</span>
                      </button>
                    ) : (
                      (c.text ?? t(c.label))
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {data?.items.map((item) => (
              <tr key={String(item.id)} class={selected.has(Number(item.id)) ? "selected" : undefined}>
                {selecting && (
                  <td class="select" data-label={t("inventory:list.select")}>
                    <input
                      type="checkbox"
                      aria-label={t("inventory:list.selectOne", { name: titleOf(group, item) })}
                      checked={selected.has(Number(item.id))}
                      onChange={() => toggle(Number(item.id))}
                    />
                  </td>
                )}
                {columns.shown.map((c, i) => (
                  <td key={c.name} data-label={c.text ?? t(c.label)}>
                    {i === 0 ? (
                      <Link href={`${base}/${String(item.id)}`}>{cell(item[c.name])}</Link>
                    ) : (
                      <Cell column={c} item={item} nameOf={nameOf} />
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {data && data.items.length === 0 && (
          <EmptyList
            group={group}
            filtered={Boolean(text) || group.filters.some((f) => q.get(f.name))}
            canAdd={session.can(group.writeScope)}
          />
        )}
      </div>
      {data && (
        <nav class="pager" aria-label={t("inventory:list.pages")}>
          <button type="button" disabled={offset === 0} onClick={() => setQuery({ offset: String(Math.max(0, offset - PAGE)) }, false)}>
            {t("common:pager.previous")}
          </button>
          <span aria-live="polite">
            {data.total === 0
              ? t("inventory:list.rangeNone", { total: data.total.toLocaleString() })
              : t("common:pager.range", {
                  from: offset + 1,
                  to: Math.min(offset + data.items.length, data.total),
                  total: data.total.toLocaleString(),
                })}
          </span>
          <button type="button" disabled={offset + PAGE >= data.total} onClick={() => setQuery({ offset: String(offset + PAGE) }, false)}>
            {t("common:pager.next")}
          </button>
        </nav>
      )}
    </section>
  );
}
