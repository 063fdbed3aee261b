// The status overview: how many monitors are up, down, pending or in maintenance, per target kind, and the
// monitors with their latency sparkline and 24 h uptime, down ones first. Live from /monitors/stream: a
// status change updates its row at once; anything else reloads the page of monitors.
import { useRef, useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { Sparkline } from "../components/sparkline.tsx";
import { Status } from "../components/status.tsx";
import { LiveBadge, useStream } from "../live.tsx";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";

type Overview = paths["/api/v1/monitors/overview"]["get"]["responses"][200]["content"]["application/json"];
type Monitor = Overview["items"][number];
const STATES = ["up", "degraded", "down", "pending", "maintenance"] as const;
const PAGE = 100;

export function MonitoringOverview() {
  const canWrite = useSession().can("write:monitors");
  const [offset, setOffset] = useState(0);
  const [changed, setChanged] = useState<Record<number, { status: Monitor["status"]; msg?: string }>>({});
  const page = useLoad(async () => {
    const res = await ok(
      api.GET("/api/v1/monitors/overview", { params: { query: { limit: String(PAGE), offset: String(offset), sort: "status" } } }),
    );
    setChanged({});
    return res;
  }, [offset]);
  // Counts per state come from the server (total of each filtered list), so they hold past one page.
  const counts = useLoad(
    () =>
      Promise.all(
        STATES.map(
          async (s) => [s, (await ok(api.GET("/api/v1/monitors", { params: { query: { status: s, limit: "1" } } }))).total] as const,
        ),
      ),
    [page.data],
  );
  const reloadSoon = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const live = useStream(
    "/api/v1/monitors/stream",
    (data) => {
      if (data.type === "status" && typeof data.monitor_id === "number") {
        setChanged((c) => ({
          ...c,
          [data.monitor_id as number]: { status: data.status as Monitor["status"], msg: String(data.msg ?? "") },
        }));
      }
      clearTimeout(reloadSoon.current);
      reloadSoon.current = setTimeout(() => page.reload(), 1500);
    },
    () => page.reload(),
  );

  const items = (page.data?.items ?? []).map((m) =>
    changed[m.id] ? { ...m, status: changed[m.id]!.status, last_msg: changed[m.id]!.msg ?? m.last_msg } : m,
  );
  // The server's counts, moved by the changes that arrived since they were read (until the next reload).
  const delta: Record<string, number> = {};
  for (const m of page.data?.items ?? []) {
    const now = changed[m.id]?.status;
    if (!now || now === m.status) continue;
    delta[m.status] = (delta[m.status] ?? 0) - 1;
    delta[now] = (delta[now] ?? 0) + 1;
  }
  const byKind = new Map<string, Record<string, number>>();
  for (const m of items) {
    const kind = m.target_type ?? "address";
    const row = byKind.get(kind) ?? {};
    row[m.status] = (row[m.status] ?? 0) + 1;
    byKind.set(kind, row);
  }
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
        {STATES.map((s) => {
          const counted = counts.data?.find(([k]) => k === s)?.[1];
          const n = counted === undefined ? undefined : counted + (delta[s] ?? 0);
          return (
            <li key={s} class={`tile tile-${s}`}>
              <span class="tile-count">{n ?? "…"}</span>
              <Status value={s} />
            </li>
          );
        })}
      </ul>
      {byKind.size > 0 && (
        <table class="compact">
          <caption>By target kind (this page)</caption>
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
            {[...byKind].map(([kind, row]) => (
              <tr key={kind}>
                <th scope="row">{kind}</th>
                {STATES.map((s) => (
                  <td key={s}>{row[s] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="table-wrap">
        <table>
          <caption>Monitors</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Check</th>
              <th scope="col">Latency</th>
              <th scope="col">Uptime 24 h</th>
              <th scope="col">Last message</th>
            </tr>
          </thead>
          <tbody>
            {items.map((m) => (
              <tr key={m.id} data-monitor={m.id}>
                <td data-label="Name">
                  <Link href={`/monitors/${m.id}`}>{m.name}</Link>
                </td>
                <td data-label="Status">
                  <Status value={m.status} />
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
        </table>
        {page.data && page.data.items.length === 0 && (
          <p class="empty">
            {canWrite
              ? "No monitors yet. Add one with New monitor."
              : "No monitors yet. Your role can read monitors but not create them (write:monitors)."}
          </p>
        )}
      </div>
      {page.data && page.data.total > PAGE && (
        <nav class="pager" aria-label="Pages">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Previous
          </button>
          <span>
            {offset + 1}–{Math.min(offset + PAGE, page.data.total)} of {page.data.total}
          </span>
          <button type="button" disabled={offset + PAGE >= page.data.total} onClick={() => setOffset(offset + PAGE)}>
            Next
          </button>
        </nav>
      )}
    </section>
  );
}
