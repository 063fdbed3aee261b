// One record of a group: its fields (a reference by the referenced record's name, linking to it), its
// relations (each a link, added and removed here by a role that may: relation-list.tsx), its History tab
// (history-tab.tsx), its Journal tab (journal-tab.tsx; the kinds that have one), a rack's elevation
// (rack-elevation.tsx) and a prefix's address space (prefix-space.tsx), and edit and delete for users whose scopes allow them. Delete sends If-Match, so it
// never removes a changed record.
import { useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { Link, navigate } from "../router.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { GROUP_TITLES } from "../shell/group-titles.ts";
import { useLoad } from "../use-load.ts";
import { RelativeTime } from "../components/time.tsx";
import { GroupRecordMonitors } from "../monitoring/target-monitors.tsx";
import { GROUP_NOUNS } from "./group-nouns.ts";
import { HistoryTab } from "./history-tab.tsx";
import { hasJournal, JournalTab } from "./journal-tab.tsx";
import { PrefixSpace } from "./prefix-space.tsx";
import { RackElevation } from "./rack-elevation.tsx";
import { cell, titleOf } from "./list-page.tsx";
import { RefLink, useNames } from "./names.tsx";
import { RelationList } from "./relation-list.tsx";
import { TelemetryConfigSection } from "./telemetry-config.tsx";
import { PortsSections } from "../cabling/ports-section.tsx";
import type { Group, GroupKey } from "./types.ts";
import { CustomFieldValues, useCustomFields } from "./custom-fields.tsx";
import { ManagedBy } from "./managed-by.tsx";

type Row = Record<string, unknown>;

/** The detail page's tabs: sub-routes of /inventory/<group>/<id> (app.tsx). */
export const DETAIL_TABS = [
  { sub: "", label: i18nKey("inventory:detail.details") },
  { sub: "journal", label: i18nKey("journal:tab") },
  { sub: "history", label: i18nKey("inventory:detail.history") },
] as const;
export type DetailTab = (typeof DETAIL_TABS)[number]["sub"];

/** The fields of `data` that refer to another record: field -> the group it is in. */
function referencesOf(group: Group, data: Row): Map<string, GroupKey> {
  const refs = new Map<string, GroupKey>([
    ...group.fields.flatMap((f) => (f.ref ? [[f.name, f.ref] as const] : [])),
    ...group.columns.flatMap((c) => (c.ref && !c.idField ? [[c.name, c.ref] as const] : [])),
  ]);
  const poly = group.polyRef;
  const target = poly?.groups[String(data[poly.typeField])];
  if (poly && target) refs.set(poly.idField, target);
  return refs;
}

export function DetailPage({ group, id, tab = "" }: { group: Group; id: string; tab?: DetailTab }) {
  const t = useT();
  const session = useSession();
  const params = { path: { [group.idParam]: id } };
  const item = useLoad(async () => (await ok(anyApi.GET(group.itemPath, { params }))) as Row & { version?: number }, [group.key, id]);
  const [error, setError] = useState<string | undefined>();
  // Moves made in a rack's elevation: the relations below (the rack's hardware with its units) reload.
  const [moves, setMoves] = useState(0);
  const customFields = useCustomFields(group.kind);
  const base = `/inventory/${group.key}`;
  const data = item.data;
  const refs = data ? referencesOf(group, data) : new Map<string, GroupKey>();
  // The name the record carries beside a reference's id (hardware_name beside hardware_id), if any.
  const carried = (k: string) => {
    const c = group.columns.find((col) => col.idField === k && typeof data?.[col.name] === "string");
    return c ? (data![c.name] as string) : undefined;
  };
  const nameOf = useNames([...refs].filter(([k]) => carried(k) === undefined).map(([k, g]) => ({ group: g, id: data?.[k] })));

  const remove = async () => {
    if (!item.data || !confirm(t("inventory:detail.confirmDelete", { name: titleOf(group, item.data) }))) return;
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
  if (!data) return <p aria-busy="true">{t("common:loading")}</p>;
  // A name the record carries for a reference shown by its id (site_name beside site_id) is not listed twice.
  const shown = [...new Set([...group.columns.map((c) => c.name), ...group.fields.map((f) => f.name)])].filter(
    (k) => k !== (group.titleField ?? "name") && k in data && !group.columns.some((c) => c.name === k && c.idField && refs.has(c.idField)),
  );
  const linkedBy = new Map(
    group.columns.flatMap((c) => (c.ref && c.idField ? [[c.name, { group: c.ref, idField: c.idField }] as const] : [])),
  );
  const labels = new Map<string, string>([
    ...group.fields.map((f) => [f.name, f.label] as const),
    ...group.columns.map((c) => [c.name, c.label] as const),
  ]);
  const value = (k: string) => {
    const ref = refs.get(k);
    const linked = linkedBy.get(k);
    if (k.endsWith("status")) return <Status value={data[k] as string} />;
    if (ref && data[k] != null) return <RefLink group={ref} id={data[k]} name={carried(k) ?? nameOf(ref, data[k])} />;
    if (linked && data[linked.idField] != null)
      return <RefLink group={linked.group} id={data[linked.idField]} name={data[k] as string | undefined} />;
    return cell(data[k]);
  };
  return (
    <article aria-labelledby="detail-title">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href={base}>{t(GROUP_TITLES[group.key])}</Link>
          </p>
          <h1 id="detail-title">{titleOf(group, data)}</h1>
        </div>
        <div class="actions">
          {session.can(group.writeScope) && (
            <Link class="button primary" href={`${base}/${id}/edit`}>
              {t("inventory:detail.edit")}
            </Link>
          )}
          {session.can(group.deleteScope) && (
            <button type="button" class="danger" onClick={() => void remove()}>
              {t("inventory:detail.delete")}
            </button>
          )}
        </div>
      </header>
      <nav class="tabs" aria-label={t("inventory:detail.screens", { noun: t(GROUP_NOUNS[group.key]) })}>
        {DETAIL_TABS.filter((d) => d.sub === "" || hasJournal(group)).map((d) => (
          <Link key={d.sub} href={`${base}/${id}${d.sub ? `/${d.sub}` : ""}`} aria-current={d.sub === tab ? "page" : undefined}>
            {t(d.label)}
          </Link>
        ))}
      </nav>
      <Notice kind="error">{error}</Notice>
      <ManagedBy group={group} id={id} />
      {tab === "history" ? (
        <HistoryTab group={group} id={id} />
      ) : tab === "journal" ? (
        <JournalTab group={group} id={id} />
      ) : (
        <>
          <dl class="fields">
            {shown.map((k) => (
              <div key={k}>
                <dt>{t(labels.get(k) ?? k)}</dt>
                <dd>{value(k)}</dd>
              </div>
            ))}
            <CustomFieldValues defs={customFields.data ?? []} item={data} />
            <div>
              <dt>{t("inventory:detail.updated")}</dt>
              <dd>
                <RelativeTime at={data.updated_at as string | undefined} />
              </dd>
            </div>
          </dl>
          {group.key === "racks" && <RackElevation rackId={id} onMoved={() => setMoves((n) => n + 1)} />}
          {group.key === "prefixes" && <PrefixSpace id={id} />}
          <div class="relations" key={moves}>
            <GroupRecordMonitors group={group.key} id={id} />
            {group.key === "hardware" && <TelemetryConfigSection id={id} />}
            {group.key === "hardware" && <PortsSections hardwareId={id} />}
            {group.relations.map((r) => (
              <RelationList key={r.label} relation={r} id={id} />
            ))}
          </div>
        </>
      )}
    </article>
  );
}
