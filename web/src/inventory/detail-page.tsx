// One record of a group: its fields, its relations (each a link to the related record), and edit and
// delete for users whose scopes allow them. Delete sends If-Match, so it never removes a changed record.
import { useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { Link, navigate } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { GroupRecordMonitors } from "../monitoring/target-monitors.tsx";
import { cell, titleOf } from "./list-page.tsx";
import type { Group, Relation } from "./types.ts";

type Row = Record<string, unknown>;

function RelationList({ relation, id }: { relation: Relation; id: string }) {
  const rows = useLoad(async () => {
    const answer = (await ok(anyApi.GET(relation.path, { params: relation.params(id) }))) as Row[] | { items: Row[]; total: number };
    return Array.isArray(answer) ? { items: answer, total: answer.length } : answer;
  }, [relation.path, id]);
  return (
    <section class="relation" aria-label={relation.label}>
      <h2>
        {relation.label} {rows.data && <span class="count">({rows.data.total})</span>}
      </h2>
      {rows.error !== undefined && <Notice kind="error">{messageOf(rows.error)}</Notice>}
      {rows.data && rows.data.items.length === 0 && <p class="empty">None.</p>}
      <ul>
        {rows.data?.items.map((r) => (
          <li key={String(r[relation.idField]) + String(r.id)}>
            <Link href={`/inventory/${relation.group}/${String(r[relation.idField])}`}>
              {cell(r[relation.nameField ?? "name"] ?? `#${String(r[relation.idField])}`)}
            </Link>
            {relation.show.map((k) =>
              k === "status" ? (
                <Status key={k} value={r[k] as string} />
              ) : (
                <span key={k} class="meta">
                  {cell(r[k])}
                </span>
              ),
            )}
          </li>
        ))}
      </ul>
      {rows.data && rows.data.total > rows.data.items.length && (
        <p class="meta">
          Showing {rows.data.items.length} of {rows.data.total}.
        </p>
      )}
    </section>
  );
}

export function DetailPage({ group, id }: { group: Group; id: string }) {
  const session = useSession();
  const params = { path: { [group.idParam]: id } };
  const item = useLoad(async () => (await ok(anyApi.GET(group.itemPath, { params }))) as Row & { version?: number }, [group.key, id]);
  const [error, setError] = useState<string | undefined>();
  const base = `/inventory/${group.key}`;

  const remove = async () => {
    if (!item.data || !confirm(`Delete ${titleOf(group, item.data)}? This cannot be undone.`)) return;
    setError(undefined);
    try {
      const headers: Record<string, string> = item.data.version !== undefined ? { "If-Match": `"${item.data.version}"` } : {};
      await ok(anyApi.DELETE(group.itemPath, { params, headers }));
      navigate(base);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  if (item.error !== undefined) return <Notice kind="error">{messageOf(item.error)}</Notice>;
  const data = item.data;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const shown = [...new Set([...group.columns.map((c) => c.name), ...group.fields.map((f) => f.name)])].filter(
    (k) => k !== (group.titleField ?? "name") && k in data,
  );
  const refs = new Map(group.fields.flatMap((f) => (f.ref ? [[f.name as string, f.ref] as const] : [])));
  const labels = new Map<string, string>([
    ...group.fields.map((f) => [f.name, f.label] as const),
    ...group.columns.map((c) => [c.name, c.label] as const),
  ]);
  return (
    <article aria-labelledby="detail-title">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href={base}>{group.title}</Link>
          </p>
          <h1 id="detail-title">{titleOf(group, data)}</h1>
        </div>
        <div class="actions">
          {session.can(group.writeScope) && (
            <Link class="button primary" href={`${base}/${id}/edit`}>
              Edit
            </Link>
          )}
          {session.can(group.deleteScope) && (
            <button type="button" class="danger" onClick={() => void remove()}>
              Delete
            </button>
          )}
        </div>
      </header>
      <Notice kind="error">{error}</Notice>
      <dl class="fields">
        {shown.map((k) => (
          <div key={k}>
            <dt>{labels.get(k) ?? k}</dt>
            <dd>
              {k.endsWith("status") ? (
                <Status value={data[k] as string} />
              ) : refs.get(k) && data[k] != null ? (
                <Link href={`/inventory/${refs.get(k)}/${String(data[k])}`}>#{String(data[k])}</Link>
              ) : (
                cell(data[k])
              )}
            </dd>
          </div>
        ))}
        <div>
          <dt>Updated</dt>
          <dd>{cell(data.updated_at)}</dd>
        </div>
      </dl>
      <div class="relations">
        <GroupRecordMonitors group={group.key} id={id} />
        {group.relations.map((r) => (
          <RelationList key={r.label} relation={r} id={id} />
        ))}
      </div>
    </article>
  );
}
