// One monitor's page (/monitors/<id>): its state and configuration, its heartbeat bar, uptime over 24 h,
// 7 d and 30 d, the history chart, its events, Check now / Pause / Resume / Edit for a role with
// write:monitors and Delete (in a dialog) with delete:monitors. When its current outage's alert was
// folded into an upstream's (dispatch-alerts.ts), a notice says which upstream. Live from
// /monitors/stream: the page is read once the stream is ready (so no change falls between the read and
// the stream, docs/adr/0463); its results extend the heartbeats and the chart and its status changes
// show at once (state, message, a row of events); what only the server knows (uptime, a fold, an edit)
// is read again, at most once a minute.
import { useRef, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { sourceOf } from "../../../shared/domain/monitors/check-types.ts";
import { PushUrlPanel } from "./push-url.tsx";
import { BadgeUrlsPanel } from "./badge-urls.tsx";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice } from "../components/field.tsx";
import { BEATS, HeartbeatBar } from "../components/heartbeat-bar.tsx";
import { Status } from "../components/status.tsx";
import { LiveBadge, RARE_REREAD_MS, useCoalesced, useStream } from "../live.tsx";
import { Link } from "../router.tsx";
import { i18nKey, t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { type LiveEvent, MonitorEvents } from "./monitor-events.tsx";
import { type LiveResult, MonitorHistory } from "./monitor-history.tsx";
import { TargetLink, useTargetName } from "./target-link.tsx";
import { DeleteMonitorDialog } from "./delete-monitor-dialog.tsx";
import { FoldedDependents, UpstreamCause } from "./upstream.tsx";
import { VantageTable } from "./vantage-table.tsx";
import { GroupMembers, type HeardStatus } from "./group-members.tsx";
import { RelativeTime } from "../components/time.tsx";

// The API rounds uptime to one decimal.
const pct = (v: number | null | undefined) => (v == null ? "—" : t("monitoring:page.pct", { v }));
const UPTIME = {
  "24h": i18nKey("monitoring:page.uptime24h"),
  "7d": i18nKey("monitoring:page.uptime7d"),
  "30d": i18nKey("monitoring:page.uptime30d"),
} as const;
/** Other monitors' status changes kept for a group's member list at most (the newest). */
const HEARD_MAX = 500;
const after = (a: string, b: string | null | undefined) => b == null || Date.parse(a) > Date.parse(b);

/** A page per monitor: going to another monitor's page starts afresh (its stream, reads and live state). */
export function MonitorPage({ id }: { id: string }) {
  return <MonitorScreen key={id} id={id} />;
}

function MonitorScreen({ id }: { id: string }) {
  useT();
  const session = useSession();
  const canWrite = session.can("write:monitors");
  const path = { monitor_id: id };
  // 0 until the stream is ready (or known to be away): the reads wait for it, then follow each change.
  const [version, setVersion] = useState(0);
  const wait = { wait: version === 0 };
  const monitor = useLoad(() => ok(api.GET("/api/v1/monitors/{monitor_id}", { params: { path } })), [id, version], wait);
  const uptime = useLoad(() => ok(api.GET("/api/v1/monitors/{monitor_id}/uptime", { params: { path } })), [id, version], wait);
  // The latest down event tells whether the current outage's alert was suppressed, and by whom.
  const lastDown = useLoad(
    async () =>
      (await ok(api.GET("/api/v1/monitors/{monitor_id}/events", { params: { path, query: { event_type: "down", limit: "1" } } }))).items[0],
    [id, version],
    wait,
  );
  const targetName = useTargetName(monitor.data?.target_type ?? null, monitor.data?.target_id ?? null);
  const groupId = monitor.data?.group_id ?? null;
  const group = useLoad(
    async () =>
      groupId == null ? undefined : ok(api.GET("/api/v1/monitors/{monitor_id}", { params: { path: { monitor_id: String(groupId) } } })),
    [groupId, version],
    wait,
  );
  const [fresh, setFresh] = useState<LiveResult[]>([]);
  const [changes, setChanges] = useState<LiveEvent[]>([]);
  // Other monitors' status changes heard live, for a group's member list (group-members.tsx): a member's
  // change shows at once, like the group's own, not with the next read a minute later.
  const [heard, setHeard] = useState<Record<number, HeardStatus>>({});
  const reread = useCoalesced(() => setVersion((v) => v + 1));
  const resync = useRef(0);
  const live = useStream(
    "/api/v1/monitors/stream",
    (data) => {
      const mine = Number(id);
      if (data.type === "results" && Array.isArray(data.results)) {
        const added = (data.results as { monitor_id: number; status: string; up: boolean; latency_ms: number | null; ts: string }[])
          .filter((r) => r.monitor_id === mine)
          .map((r) => ({ ts: Date.parse(r.ts), status: r.status, up: r.up, latency_ms: r.latency_ms }));
        if (added.length) setFresh((f) => [...f, ...added].slice(-2000));
        // A multi-vantage monitor's points change with every result: read them again (once a minute).
        if (added.length && (monitor.data?.vantage_agent_ids.length ?? 0) > 0) reread.soon();
        return;
      }
      // Kept before the page knows it is a group's (a change may come before the first read ends), bounded.
      const groupPage = monitor.data ? monitor.data.check_type === "group" : true;
      if (data.type === "status" && Number(data.monitor_id) !== mine && groupPage) {
        const other = Number(data.monitor_id);
        setHeard((h) =>
          Object.fromEntries([...Object.entries(h).slice(-(HEARD_MAX - 1)), [other, { status: String(data.status), ts: String(data.ts) }]]),
        );
      }
      if (data.monitor_id !== mine && data.root_monitor_id !== mine) return;
      // Its status change shows at once; uptime and a fold into an upstream's alert follow with the next read.
      if (data.type === "status") {
        const change = {
          status: String(data.status),
          status_from: String(data.status_from ?? ""),
          msg: String(data.msg ?? ""),
          ts: String(data.ts),
        };
        setChanges((c) => [...c, change].slice(-50));
      }
      // A fold into an upstream's alert (or of a dependent's into ours) comes once an outage, and only a
      // read shows it: sooner than the minute.
      reread.soon(data.type === "suppressed" ? RARE_REREAD_MS : undefined);
    },
    () => {
      resync.current++;
      reread.mark();
      setVersion((v) => v + 1);
    },
  );
  const action = useSubmit();
  const [deleting, setDeleting] = useState(false);
  const act = (what: "check" | "pause" | "resume") =>
    action.run(async () => {
      const url = `/api/v1/monitors/{monitor_id}/${what}` as const;
      await ok(api.POST(url, { params: { path } }));
      reread.mark();
      setVersion((v) => v + 1);
    });

  if (monitor.error !== undefined && !monitor.data) return <Notice kind="error">{messageOf(monitor.error)}</Notice>;
  const read = monitor.data;
  if (!read) return <p aria-busy="true">{t("common:loading")}</p>;
  // The read, with the status changes and results heard since (each only when newer than what was read).
  const change = changes.filter((c) => after(c.ts, read.last_status_change_at)).at(-1);
  const lastBeat = read.heartbeats.at(-1)?.ts;
  const newer = fresh.filter((r) => after(new Date(r.ts).toISOString(), lastBeat ?? read.last_polled_at));
  const latest = newer.at(-1);
  const m = {
    ...read,
    ...(change ? { status: change.status as typeof read.status, last_msg: change.msg, last_status_change_at: change.ts } : {}),
    ...(latest ? { last_polled_at: new Date(latest.ts).toISOString(), latency_ms: latest.latency_ms ?? read.latency_ms } : {}),
  };
  const heartbeats = [
    ...read.heartbeats,
    ...fresh
      .filter((r) => after(new Date(r.ts).toISOString(), lastBeat))
      .map((r) => ({ ts: new Date(r.ts).toISOString(), status: r.status, latency_ms: r.latency_ms, msg: undefined })),
  ].slice(-BEATS);
  const down = lastDown.data;
  const suppressedNow = m.status === "down" && down?.suppressed_by != null;
  const config = Object.entries(m.config ?? {});
  // A push or group monitor is not probed: no prober (docs/adr/0434). "Check now" judges a group by its
  // members now; a push monitor has nothing to check.
  const probed = sourceOf(m.check_type) === "probe";
  const checkable = sourceOf(m.check_type) !== "push";
  return (
    <article aria-labelledby="monitor-title">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/">{t("monitoring:overview.crumb")}</Link>
          </p>
          <h1 id="monitor-title">
            {m.name} <Status value={m.enabled ? m.status : "paused"} />
          </h1>
        </div>
        <LiveBadge state={live} />
        <div class="actions">
          {canWrite ? (
            <>
              {checkable && (
                <button type="button" class="primary" disabled={action.busy || !m.enabled} onClick={() => void act("check")}>
                  {t("monitoring:page.checkNow")}
                </button>
              )}
              {m.enabled ? (
                <button type="button" disabled={action.busy} onClick={() => void act("pause")}>
                  {t("monitoring:page.pause")}
                </button>
              ) : (
                <button type="button" disabled={action.busy} onClick={() => void act("resume")}>
                  {t("monitoring:page.resume")}
                </button>
              )}
              <Link href={`/monitors/${m.id}/edit`} class="button">
                {t("monitoring:page.edit")}
              </Link>
              {session.can("delete:monitors") && (
                <button type="button" class="danger" onClick={() => setDeleting(true)}>
                  {t("monitoring:page.delete")}
                </button>
              )}
            </>
          ) : (
            <span class="meta">{t("monitoring:page.readOnly")}</span>
          )}
        </div>
      </header>
      <Notice kind="error">{action.error}</Notice>
      {deleting && <DeleteMonitorDialog monitor={m} onClose={() => setDeleting(false)} />}
      {sourceOf(m.check_type) === "push" && <PushUrlPanel key={m.id} monitorId={m.id} canWrite={canWrite} />}
      {(m.badge_public || m.badge_listed) && <BadgeUrlsPanel monitorId={m.id} checkType={m.check_type} listed={!m.badge_public} />}
      {suppressedNow && (
        <p class="notice notice-info suppression" role="status">
          <span class="badge badge-suppressed">{t("monitoring:page.suppressedBadge")}</span> {t("monitoring:page.suppressedBefore")}{" "}
          <UpstreamCause upstream={down.upstream} /> {t("monitoring:page.suppressedAfter")}
        </p>
      )}
      {m.status === "down" && down && down.suppressed_dependents.length > 0 && (
        <p class="notice notice-info folded-notice" role="status">
          {t("monitoring:page.foldedBefore")} <FoldedDependents monitors={down.suppressed_dependents} /> {t("monitoring:page.foldedAfter")}
        </p>
      )}
      <dl class="fields">
        <div>
          <dt>{t("monitoring:col.check")}</dt>
          <dd>
            {m.check_type} {m.host}
          </dd>
        </div>
        <div>
          <dt>{t("monitoring:page.target")}</dt>
          <dd>{m.target_type && m.target_id != null ? <TargetLink type={m.target_type} id={m.target_id} name={targetName} /> : "—"}</dd>
        </div>
        <div>
          <dt>{t("monitoring:form.group")}</dt>
          <dd>
            {m.group_id == null ? (
              "—"
            ) : (
              <>
                <Link href={`/monitors/${m.group_id}`}>{group.data?.name ?? t("monitoring:page.monitorN", { id: m.group_id })}</Link>{" "}
                {group.data && <Status value={group.data.enabled ? group.data.status : "paused"} />}
              </>
            )}
          </dd>
        </div>
        {m.members && (
          <div>
            <dt>{t("monitoring:members.title")}</dt>
            <dd>
              {t("monitoring:page.members", {
                total: m.members.total,
                up: m.members.up,
                down: m.members.down,
                pending: m.members.pending,
              })}
              {m.members.paused ? t("monitoring:page.membersPaused", { n: m.members.paused }) : ""}
              {m.members.maintenance ? t("monitoring:page.membersMaintenance", { n: m.members.maintenance }) : ""}
            </dd>
          </div>
        )}
        <div>
          <dt>{t("monitoring:page.interval")}</dt>
          <dd>
            {m.check_type === "group"
              ? t("monitoring:page.intervalGroup", { secs: m.interval_secs })
              : t("monitoring:page.intervalEvery", { secs: m.interval_secs }) +
                (m.max_retries > 0
                  ? t("monitoring:page.downAfter", { count: m.max_retries + 1 }) +
                    (m.retry_interval_secs ? t("monitoring:page.apart", { secs: m.retry_interval_secs }) : "")
                  : t("monitoring:page.downFirst"))}
          </dd>
        </div>
        <div hidden={!probed}>
          <dt>{t("monitoring:page.probedBy")}</dt>
          <dd>
            {m.vantage_agent_ids.length > 0 ? (
              m.vantage_sidecar ? (
                t("monitoring:page.probedServerAgents", { count: m.vantage_agent_ids.length, quorum: m.quorum })
              ) : (
                t("monitoring:page.probedAgents", { count: m.vantage_agent_ids.length, quorum: m.quorum })
              )
            ) : m.probe_mode === "agent" ? (
              m.probe_agent ? (
                <Link href={`/agents/${m.probe_agent.id}`}>
                  {m.probe_agent.name ?? t("monitoring:vantage.agent", { id: m.probe_agent.id })}
                </Link>
              ) : (
                t("monitoring:page.anAgent")
              )
            ) : (
              t("monitoring:vantage.server")
            )}
          </dd>
        </div>
        {config.length > 0 && (
          <div>
            <dt>{t("monitoring:page.settings")}</dt>
            <dd>{config.map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`).join(", ")}</dd>
          </div>
        )}
        <div>
          <dt>{t("monitoring:history.latency")}</dt>
          <dd>{m.latency_ms == null ? "—" : t("monitoring:page.ms", { ms: Math.round(m.latency_ms) })}</dd>
        </div>
        <div>
          <dt>{t("monitoring:col.lastMessage")}</dt>
          <dd>{m.last_msg ?? "—"}</dd>
        </div>
        <div>
          <dt>{t("monitoring:page.lastChecked")}</dt>
          <dd>
            <RelativeTime at={m.last_polled_at} />
          </dd>
        </div>
        <div>
          <dt>{t("monitoring:page.since")}</dt>
          <dd>
            <RelativeTime at={m.last_status_change_at} />
          </dd>
        </div>
        <div>
          <dt>{t("monitoring:page.nextCheck")}</dt>
          <dd>{m.enabled ? <RelativeTime at={m.next_check_at} /> : t("monitoring:page.paused")}</dd>
        </div>
      </dl>
      <section aria-labelledby="monitor-beats-title">
        <h2 id="monitor-beats-title">{t("monitoring:page.lastChecks", { count: BEATS })}</h2>
        <HeartbeatBar beats={heartbeats} label={t("monitoring:page.checksOf", { name: m.name })} />
      </section>
      <ul class="tiles" aria-label={t("monitoring:page.uptime")}>
        {(["24h", "7d", "30d"] as const).map((w) => (
          <li key={w} class="tile">
            <span class="tile-count">{uptime.data ? pct(uptime.data[`pct_${w}`]) : "…"}</span>
            <span>{t(UPTIME[w])}</span>
          </li>
        ))}
      </ul>
      {uptime.error !== undefined && <Notice kind="error">{messageOf(uptime.error)}</Notice>}
      <VantageTable points={m.vantage_results} quorum={m.quorum} />
      {m.check_type === "group" && <GroupMembers groupId={m.id} version={version} heard={heard} />}
      <MonitorHistory monitorId={m.id} fresh={fresh} version={resync.current} />
      <MonitorEvents monitorId={m.id} version={version} live={changes} />
    </article>
  );
}
