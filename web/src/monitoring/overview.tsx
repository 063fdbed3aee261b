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
import { useLoad } from "../use-load.ts";
import { applyEvent, type Overview, type OverviewMonitor } from "./overview-live.ts";

const STATES = ["up", "degraded", "down", "pending", "maintenance"] as const;
const KINDS = ["hardware", "compute_unit", "external_node", "service", "ip", "none"] as const;
const KIND_LABEL: Record<string, string> = {
  hardware: "hardware",
  compute_unit: "compute unit",
  external_node: "external node",
  service: "service",
  ip: "ip",
  none: "no target (address)",
};
const GROUPS = [
  { value: "", label: "None", sort: "status" },
  { value: "status", label: "Status", sort: "status" },
  { value: "target_type", label: "Target kind", sort: "target_type" },
  { value: "site", label: "Site", sort: "site" },
  { value: "tag", label: "Tag", sort: "name" },
] as const;
const FILTERS = ["status", "target_type", "site_id", "tag"] as const;
type Filter = (typeof FILTERS)[number];
const PAGE = 100;

function groupsOf(items: OverviewMonitor[], by: string): [string, OverviewMonitor[]][] {
  if (!by) return [["", items]];
  const groups = new Map<string, OverviewMonitor[]>();
  const add = (key: string, m: OverviewMonitor) => groups.set(key, [...(groups.get(key) ?? []), m]);
  for (const m of items) {
    if (by === "status") add(m.status, m);
    else if (by === "target_type") add(KIND_LABEL[m.target_type ?? "none"] ?? m.target_type ?? "", m);
    else if (by === "site") add(m.site?.name ?? "No site", m);
    else if (m.tags.length === 0) add("No tag", m);
    else for (const t of m.tags) add(t, m);
  }
  const out = [...groups];
  // Tags are grouped here (a monitor may have several): by name, the untagged last.
  if (by === "tag") out.sort(([a], [b]) => (a === "No tag" ? 1 : b === "No tag" ? -1 : a.localeCompare(b)));
  return out;
}

export function MonitoringOverview() {
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
  const tagOptions = [...new Set([...(tags.data ?? []).map((t) => t.name), ...(filter.tag ? [filter.tag] : [])])].sort();

  return (
    <section aria-labelledby="overview-title">
      <header class="page-head">
        <h1 id="overview-title">Monitoring overview</h1>
        <LiveBadge state={live} />
        {canWrite && (
          <div class="actions">
            <Link href="/monitors/new" class="button primary">
              New monitor
            </Link>
          </div>
        )}
      </header>
      {page.error !== undefined && <Notice kind="error">{messageOf(page.error)}</Notice>}
      <ul class="tiles" aria-label="Monitors by state">
        {STATES.map((s) => (
          <li key={s} class={`tile tile-${s}`} data-state={s} aria-current={filter.status === s ? "true" : undefined}>
            <button
              type="button"
              class="tile-filter"
              aria-pressed={filter.status === s}
              title={filter.status === s ? "Show every state" : `Show only ${s}`}
              onClick={() => setQuery({ status: filter.status === s ? "" : s })}
            >
              <span class="tile-count">{counts ? counts.status[s] : "…"}</span>
              <Status value={s} />
            </button>
          </li>
        ))}
      </ul>
      <form class="overview-filters" aria-label="Filter and group the monitors" onSubmit={(e) => e.preventDefault()}>
        <div class="overview-filter">
          <label for="overview-status">Status</label>
          <select id="overview-status" value={filter.status} onChange={(e) => setQuery({ status: e.currentTarget.value })}>
            <option value="">Any</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div class="overview-filter">
          <label for="overview-target-kind">Target kind</label>
          <select id="overview-target-kind" value={filter.target_type} onChange={(e) => setQuery({ target_type: e.currentTarget.value })}>
            <option value="">Any</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABEL[k]}
              </option>
            ))}
          </select>
        </div>
        <div class="overview-filter">
          <label for="overview-site">Site</label>
          <select id="overview-site" value={filter.site_id} onChange={(e) => setQuery({ site_id: e.currentTarget.value })}>
            <option value="">Any</option>
            {filter.site_id && !siteOptions.some((s) => String(s.id) === filter.site_id) && (
              <option value={filter.site_id}>site {filter.site_id}</option>
            )}
            {siteOptions.map((s) => (
              <option key={s.id} value={String(s.id)}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div class="overview-filter">
          <label for="overview-tag">Tag</label>
          <select id="overview-tag" value={filter.tag} onChange={(e) => setQuery({ tag: e.currentTarget.value })}>
            <option value="">Any</option>
            {tagOptions.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div class="overview-filter">
          <label for="overview-group-by">Group by</label>
          <select id="overview-group-by" value={groupBy.value} onChange={(e) => setQuery({ group: e.currentTarget.value })}>
            {GROUPS.map((g) => (
              <option key={g.value} value={g.value}>
                {g.label}
              </option>
            ))}
          </select>
        </div>
        {(FILTERS.some((k) => filter[k]) || groupBy.value) && (
          <button type="button" onClick={() => setQuery({ status: "", target_type: "", site_id: "", tag: "", group: "" })}>
            Clear
          </button>
        )}
      </form>
      {counts && counts.target_types.length > 0 && (
        <table class="compact" aria-label="Monitors by target kind and state">
          <caption>By target kind</caption>
          <thead>
            <tr>
              <th scope="col">Kind</th>
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
                <th scope="row">{KIND_LABEL[k.target_type] ?? k.target_type}</th>
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
          <caption>Monitors{view ? ` (${view.total})` : ""}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Last 50 checks</th>
              <th scope="col">Check</th>
              <th scope="col">Latency</th>
              <th scope="col">Uptime 24 h</th>
              <th scope="col">Last message</th>
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
                  <td data-label="Name">
                    <Link href={`/monitors/${m.id}`}>{m.name}</Link>
                  </td>
                  <td data-label="Status">
                    <Status value={m.status} />
                  </td>
                  <td data-label="Last 50 checks">
                    <HeartbeatBar beats={m.heartbeats} label={`Checks of ${m.name}`} />
                  </td>
                  <td data-label="Check">
                    {m.check_type} {m.host}
                  </td>
                  <td data-label="Latency">
                    <Sparkline points={m.latency_series} label={`Latency of ${m.name}, last ${m.latency_series.length} checks`} />
                    {m.latency_ms !== null && <span class="meta"> {Math.round(m.latency_ms)} ms</span>}
                  </td>
                  <td data-label="Uptime 24 h">{m.uptime_pct_24h === null ? "—" : `${m.uptime_pct_24h.toFixed(2)} %`}</td>
                  <td data-label="Last message">{m.last_msg ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          ))}
        </table>
        {view && view.items.length === 0 && (
          <p class="empty">
            {FILTERS.some((k) => filter[k])
              ? "No monitor matches these filters."
              : canWrite
                ? "No monitors yet. Add one with New monitor."
                : "No monitors yet. Your role can read monitors but not create them (write:monitors)."}
          </p>
        )}
      </div>
      {view && view.total > PAGE && (
        <nav class="pager" aria-label="Pages">
          <button type="button" disabled={offset === 0} onClick={() => setQuery({ offset: String(Math.max(0, offset - PAGE)) })}>
            Previous
          </button>
          <span>
            {offset + 1}–{Math.min(offset + PAGE, view.total)} of {view.total}
          </span>
          <button type="button" disabled={offset + PAGE >= view.total} onClick={() => setQuery({ offset: String(offset + PAGE) })}>
            Next
          </button>
        </nav>
      )}
    </section>
  );
}
