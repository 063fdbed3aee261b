// The status overview: how many monitors are up, down, pending or in maintenance, per target kind, and the
// monitors with their heartbeat bar, latency sparkline and 24 h uptime. One read of /monitors/overview
// answers the page, its counts and its heartbeats; it starts once /monitors/stream is ready, whose events
// then move the rows and counts (overview-live.ts) and at most once a minute ask for a read again
// (docs/adr/0463). Filters (status, target kind, site, tag) and the grouping live in the URL's query, so
// they survive a reload; the server filters, and sorts by the grouping so a group stays together.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { HeartbeatBar } from "../components/heartbeat-bar.tsx";
import { Sparkline } from "../components/sparkline.tsx";
import { Status } from "../components/status.tsx";
import { LiveBadge, useCoalesced, useStream } from "../live.tsx";
import { Link, navigate, useLocation } from "../router.tsx";
import { i18nKey, t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { applyEvent, type Overview, type OverviewMonitor } from "./overview-live.ts";

const STATES = ["up", "degraded", "down", "pending", "maintenance"] as const;
const KINDS = ["hardware", "compute_unit", "external_node", "service", "ip", "none"] as const;
// Labels are catalogue keys: `t(label)`.
const KIND_LABEL: Record<string, string> = {
  hardware: i18nKey("monitoring:overview.kind.hardware"),
  compute_unit: i18nKey("monitoring:overview.kind.compute"),
  external_node: i18nKey("monitoring:overview.kind.external"),
  service: i18nKey("monitoring:overview.kind.service"),
  ip: i18nKey("monitoring:overview.kind.ip"),
  none: i18nKey("monitoring:overview.kind.none"),
};
const kindLabel = (kind: string) => {
  const key = KIND_LABEL[kind];
  return key ? t(key) : kind;
};
const GROUPS = [
  { value: "", label: i18nKey("monitoring:overview.group.none"), sort: "status" },
  { value: "status", label: i18nKey("monitoring:overview.group.status"), sort: "status" },
  { value: "target_type", label: i18nKey("monitoring:overview.group.kind"), sort: "target_type" },
  { value: "site", label: i18nKey("monitoring:overview.group.site"), sort: "site" },
  { value: "tag", label: i18nKey("monitoring:overview.group.tag"), sort: "name" },
] as const;
const FILTERS = ["status", "target_type", "site_id", "tag"] as const;
type Filter = (typeof FILTERS)[number];
const PAGE = 100;

function groupsOf(items: OverviewMonitor[], by: string): [string, OverviewMonitor[]][] {
  if (!by) return [["", items]];
  const groups = new Map<string, OverviewMonitor[]>();
  const add = (key: string, m: OverviewMonitor) => groups.set(key, [...(groups.get(key) ?? []), m]);
  const noTag = t("monitoring:overview.noTag");
  for (const m of items) {
    if (by === "status") add(m.status, m);
    else if (by === "target_type") add(kindLabel(m.target_type ?? "none"), m);
    else if (by === "site") add(m.site?.name ?? t("monitoring:overview.noSite"), m);
    else if (m.tags.length === 0) add(noTag, m);
    else for (const tag of m.tags) add(tag, m);
  }
  const out = [...groups];
  // Tags are grouped here (a monitor may have several): by name, the untagged last.
  if (by === "tag") out.sort(([a], [b]) => (a === noTag ? 1 : b === noTag ? -1 : a.localeCompare(b)));
  return out;
}

export function MonitoringOverview() {
  useT();
  const canWrite = useSession().can("write:monitors");
  const loc = useLocation();
  const filter = Object.fromEntries(FILTERS.map((k) => [k, loc.query.get(k) ?? ""])) as Record<Filter, string>;
  const groupBy = GROUPS.find((g) => g.value === (loc.query.get("group") ?? "")) ?? GROUPS[0];
  const offset = Math.max(0, Number(loc.query.get("offset") ?? 0) || 0);
  const setQuery = (changes: Record<string, string>) => {
    const q = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) v ? q.set(k, v) : q.delete(k);
    if (!("offset" in changes)) q.delete("offset");
    const s = q.toString();
    navigate(`${loc.path}${s ? `?${s}` : ""}`, { replace: true });
  };
  const narrowing = { narrowed: Boolean(filter.target_type || filter.site_id || filter.tag), status: filter.status || undefined };

  // Reads start when the stream is ready (epoch 1) and again on each reconnect; events heard while a read
  // is out are replayed onto its answer.
  const [epoch, setEpoch] = useState(0);
  const [rereads, setRereads] = useState(0);
  const heard = useRef<Record<string, unknown>[] | undefined>(undefined);
  const coalesced = useCoalesced(() => setRereads((n) => n + 1));
  const query = {
    limit: String(PAGE),
    offset: String(offset),
    sort: groupBy.sort,
    ...Object.fromEntries(FILTERS.filter((k) => filter[k]).map((k) => [k, filter[k]])),
  };
  const page = useLoad(
    async () => {
      coalesced.mark();
      // This read's own list: a newer read (a filter changed meanwhile) starts its own.
      const mine: Record<string, unknown>[] = [];
      heard.current = mine;
      try {
        let view: Overview = await ok(api.GET("/api/v1/monitors/overview", { params: { query } }));
        for (const e of mine) {
          // Replayed: an off-page change may be in the answer already, so it is not counted again.
          const step = applyEvent(view, e, { ...narrowing, narrowed: true });
          view = step.view;
          if (step.reread) coalesced.soon();
        }
        return view;
      } finally {
        if (heard.current === mine) heard.current = undefined;
      }
    },
    // `loc` changes with each navigation: choosing the overview again (its link) reads it again.
    [JSON.stringify(query), epoch, rereads, loc],
    { wait: epoch === 0 },
  );
  // The page as read, then moved by the live events (the ref is what the next event applies to).
  const [view, setView] = useState<Overview | undefined>(undefined);
  const current = useRef<Overview | undefined>(undefined);
  useEffect(() => {
    current.current = page.data;
    setView(page.data);
  }, [page.data]);
  const live = useStream(
    "/api/v1/monitors/stream",
    (data) => {
      heard.current?.push(data);
      if (!current.current) return;
      const step = applyEvent(current.current, data, narrowing);
      current.current = step.view;
      setView(step.view);
      if (step.reread) coalesced.soon();
    },
    () => setEpoch((e) => e + 1),
  );

  const sites = useLoad(() => ok(api.GET("/api/v1/sites", { params: { query: { limit: "100", sort: "name" } } })), []);
  const tags = useLoad(() => ok(api.GET("/api/v1/tags")), []);
  const items = view?.items ?? [];
  const counts = view?.counts;
  const siteOptions = sites.data?.items ?? [];
  const tagOptions = [...new Set([...(tags.data ?? []).map((tag) => tag.name), ...(filter.tag ? [filter.tag] : [])])].sort();

  return (
    <section aria-labelledby="overview-title">
      <header class="page-head">
        <h1 id="overview-title">{t("monitoring:overview.crumb")}</h1>
        <LiveBadge state={live} />
        {canWrite && (
          <div class="actions">
            <Link href="/monitors/new" class="button primary">
              {t("monitoring:form.new")}
            </Link>
          </div>
        )}
      </header>
      {page.error !== undefined && <Notice kind="error">{messageOf(page.error)}</Notice>}
      <ul class="tiles" aria-label={t("monitoring:overview.byState")}>
        {STATES.map((s) => (
          <li key={s} class={`tile tile-${s}`} data-state={s} aria-current={filter.status === s ? "true" : undefined}>
            <button
              type="button"
              class="tile-filter"
              aria-pressed={filter.status === s}
              title={filter.status === s ? t("monitoring:overview.showEvery") : t("monitoring:overview.showOnly", { state: s })}
              onClick={() => setQuery({ status: filter.status === s ? "" : s })}
            >
              <span class="tile-count">{counts ? counts.status[s] : "…"}</span>
              <Status value={s} />
            </button>
          </li>
        ))}
      </ul>
      <form class="overview-filters" aria-label={t("monitoring:overview.filters")} onSubmit={(e) => e.preventDefault()}>
        <div class="overview-filter">
          <label for="overview-status">{t("monitoring:overview.group.status")}</label>
          <select id="overview-status" value={filter.status} onChange={(e) => setQuery({ status: e.currentTarget.value })}>
            <option value="">{t("monitoring:overview.any")}</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div class="overview-filter">
          <label for="overview-target-kind">{t("monitoring:overview.group.kind")}</label>
          <select id="overview-target-kind" value={filter.target_type} onChange={(e) => setQuery({ target_type: e.currentTarget.value })}>
            <option value="">{t("monitoring:overview.any")}</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {kindLabel(k)}
              </option>
            ))}
          </select>
        </div>
        <div class="overview-filter">
          <label for="overview-site">{t("monitoring:overview.group.site")}</label>
          <select id="overview-site" value={filter.site_id} onChange={(e) => setQuery({ site_id: e.currentTarget.value })}>
            <option value="">{t("monitoring:overview.any")}</option>
            {filter.site_id && !siteOptions.some((s) => String(s.id) === filter.site_id) && (
              <option value={filter.site_id}>{t("monitoring:overview.siteN", { id: filter.site_id })}</option>
            )}
            {siteOptions.map((s) => (
              <option key={s.id} value={String(s.id)}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div class="overview-filter">
          <label for="overview-tag">{t("monitoring:overview.group.tag")}</label>
          <select id="overview-tag" value={filter.tag} onChange={(e) => setQuery({ tag: e.currentTarget.value })}>
            <option value="">{t("monitoring:overview.any")}</option>
            {tagOptions.map((tag) => (
              <option key={tag} value={tag}>
                {tag}
              </option>
            ))}
          </select>
        </div>
        <div class="overview-filter">
          <label for="overview-group-by">{t("monitoring:overview.groupBy")}</label>
          <select id="overview-group-by" value={groupBy.value} onChange={(e) => setQuery({ group: e.currentTarget.value })}>
            {GROUPS.map((g) => (
              <option key={g.value} value={g.value}>
                {t(g.label)}
              </option>
            ))}
          </select>
        </div>
        {(FILTERS.some((k) => filter[k]) || groupBy.value) && (
          <button type="button" onClick={() => setQuery({ status: "", target_type: "", site_id: "", tag: "", group: "" })}>
            {t("monitoring:overview.clear")}
          </button>
        )}
      </form>
      {counts && counts.target_types.length > 0 && (
        <table class="compact" aria-label={t("monitoring:overview.byKindState")}>
          <caption>{t("monitoring:overview.byKind")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("monitoring:overview.kind")}</th>
              {STATES.map((s) => (
                <th key={s} scope="col">
                  {s}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {counts.target_types.map((k) => (
              <tr key={k.target_type} data-kind={k.target_type}>
                <th scope="row">{kindLabel(k.target_type)}</th>
                {STATES.map((s) => (
                  <td key={s} data-state={s}>
                    {k.status[s]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="table-wrap">
        <table>
          <caption>
            {t("monitoring:targetMonitors.title")}
            {view ? ` (${view.total})` : ""}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t("monitoring:form.name")}</th>
              <th scope="col">{t("monitoring:overview.group.status")}</th>
              <th scope="col">{t("monitoring:overview.last50")}</th>
              <th scope="col">{t("monitoring:col.check")}</th>
              <th scope="col">{t("monitoring:history.latency")}</th>
              <th scope="col">{t("monitoring:overview.uptime24h")}</th>
              <th scope="col">{t("monitoring:col.lastMessage")}</th>
            </tr>
          </thead>
          {groupsOf(items, groupBy.value).map(([group, rows]) => (
            <tbody key={group} data-group={group || undefined}>
              {group && (
                <tr class="group-head">
                  <th scope="rowgroup" colSpan={7}>
                    {group} <span class="count">({rows.length})</span>
                  </th>
                </tr>
              )}
              {rows.map((m) => (
                <tr key={m.id} data-monitor={m.id}>
                  <td data-label={t("monitoring:form.name")}>
                    <Link href={`/monitors/${m.id}`}>{m.name}</Link>
                  </td>
                  <td data-label={t("monitoring:overview.group.status")}>
                    <Status value={m.status} />
                  </td>
                  <td data-label={t("monitoring:overview.last50")}>
                    <HeartbeatBar beats={m.heartbeats} label={t("monitoring:page.checksOf", { name: m.name })} />
                  </td>
                  <td data-label={t("monitoring:col.check")}>
                    {m.check_type} {m.host}
                  </td>
                  <td data-label={t("monitoring:history.latency")}>
                    <Sparkline
                      points={m.latency_series}
                      label={t("monitoring:overview.latencyOf", { name: m.name, count: m.latency_series.length })}
                    />
                    {m.latency_ms !== null && <span class="meta"> {t("monitoring:page.ms", { ms: Math.round(m.latency_ms) })}</span>}
                  </td>
                  <td data-label={t("monitoring:overview.uptime24h")}>
                    {m.uptime_pct_24h === null ? "—" : t("monitoring:page.pct", { v: m.uptime_pct_24h.toFixed(2) })}
                  </td>
                  <td data-label={t("monitoring:col.lastMessage")}>{m.last_msg ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          ))}
        </table>
        {view && view.items.length === 0 && (
          <p class="empty">
            {FILTERS.some((k) => filter[k])
              ? t("monitoring:overview.noMatch")
              : canWrite
                ? t("monitoring:overview.empty")
                : t("monitoring:overview.emptyReadOnly")}
          </p>
        )}
      </div>
      {view && view.total > PAGE && (
        <nav class="pager" aria-label={t("monitoring:overview.pages")}>
          <button type="button" disabled={offset === 0} onClick={() => setQuery({ offset: String(Math.max(0, offset - PAGE)) })}>
            {t("common:pager.previous")}
          </button>
          <span>{t("common:pager.range", { from: offset + 1, to: Math.min(offset + PAGE, view.total), total: view.total })}</span>
          <button type="button" disabled={offset + PAGE >= view.total} onClick={() => setQuery({ offset: String(offset + PAGE) })}>
            {t("common:pager.next")}
          </button>
        </nav>
      )}
    </section>
  );
}
