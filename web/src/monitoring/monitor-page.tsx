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
import { useLoad } from "../use-load.ts";
import { type LiveEvent, MonitorEvents } from "./monitor-events.tsx";
import { type LiveResult, MonitorHistory } from "./monitor-history.tsx";
import { TargetLink, useTargetName } from "./target-link.tsx";
import { DeleteMonitorDialog } from "./delete-monitor-dialog.tsx";
import { FoldedDependents, UpstreamCause } from "./upstream.tsx";
import { VantageTable } from "./vantage-table.tsx";
import { GroupMembers } from "./group-members.tsx";
import { RelativeTime } from "../components/time.tsx";

// The API rounds uptime to one decimal.
const pct = (v: number | null | undefined) => (v == null ? "—" : `${v} %`);
const after = (a: string, b: string | null | undefined) => b == null || Date.parse(a) > Date.parse(b);

/** A page per monitor: going to another monitor's page starts afresh (its stream, reads and live state). */
export function MonitorPage({ id }: { id: string }) {
  return <MonitorScreen key={id} id={id} />;
}

function MonitorScreen({ id }: { id: string }) {
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
  if (!read) return <p aria-busy="true">Loading…</p>;
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
            <Link href="/">Monitoring overview</Link>
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
                  Check now
                </button>
              )}
              {m.enabled ? (
                <button type="button" disabled={action.busy} onClick={() => void act("pause")}>
                  Pause
                </button>
              ) : (
                <button type="button" disabled={action.busy} onClick={() => void act("resume")}>
                  Resume
                </button>
              )}
              <Link href={`/monitors/${m.id}/edit`} class="button">
                Edit
              </Link>
              {session.can("delete:monitors") && (
                <button type="button" class="danger" onClick={() => setDeleting(true)}>
                  Delete…
                </button>
              )}
            </>
          ) : (
            <span class="meta">Checking, pausing and resuming need the write:monitors scope.</span>
          )}
        </div>
      </header>
      <Notice kind="error">{action.error}</Notice>
      {deleting && <DeleteMonitorDialog monitor={m} onClose={() => setDeleting(false)} />}
      {sourceOf(m.check_type) === "push" && <PushUrlPanel key={m.id} monitorId={m.id} canWrite={canWrite} />}
      {(m.badge_public || m.badge_listed) && <BadgeUrlsPanel monitorId={m.id} checkType={m.check_type} listed={!m.badge_public} />}
      {suppressedNow && (
        <p class="notice notice-info suppression" role="status">
          <span class="badge badge-suppressed">Alert suppressed</span> This monitor's down alert was not sent on its own:{" "}
          <UpstreamCause upstream={down.upstream} /> first, and its alert names this monitor among those affected.
        </p>
      )}
      {m.status === "down" && down && down.suppressed_dependents.length > 0 && (
        <p class="notice notice-info folded-notice" role="status">
          This monitor's down alert was sent for <FoldedDependents monitors={down.suppressed_dependents} /> too; their own alerts were
          suppressed.
        </p>
      )}
      <dl class="fields">
        <div>
          <dt>Check</dt>
          <dd>
            {m.check_type} {m.host}
          </dd>
        </div>
        <div>
          <dt>Target</dt>
          <dd>{m.target_type && m.target_id != null ? <TargetLink type={m.target_type} id={m.target_id} name={targetName} /> : "—"}</dd>
        </div>
        <div>
          <dt>Group</dt>
          <dd>
            {m.group_id == null ? (
              "—"
            ) : (
              <>
                <Link href={`/monitors/${m.group_id}`}>{group.data?.name ?? `monitor ${m.group_id}`}</Link>{" "}
                {group.data && <Status value={group.data.enabled ? group.data.status : "paused"} />}
              </>
            )}
          </dd>
        </div>
        {m.members && (
          <div>
            <dt>Members</dt>
            <dd>
              {m.members.total} in all: {m.members.up} up, {m.members.down} down, {m.members.pending} pending
              {m.members.paused ? `, ${m.members.paused} paused` : ""}
              {m.members.maintenance ? `, ${m.members.maintenance} in maintenance` : ""}
            </dd>
          </div>
        )}
        <div>
          <dt>Interval</dt>
          <dd>
            {m.check_type === "group"
              ? `judged when a member changes, and every ${m.interval_secs} s while members report`
              : `every ${m.interval_secs} s${
                  m.max_retries > 0
                    ? `, down after ${m.max_retries + 1} failures${m.retry_interval_secs ? ` ${m.retry_interval_secs} s apart` : ""}`
                    : ", down at the first failure"
                }`}
          </dd>
        </div>
        <div hidden={!probed}>
          <dt>Probed by</dt>
          <dd>
            {m.vantage_agent_ids.length > 0 ? (
              `${m.vantage_sidecar ? "the server and " : ""}${m.vantage_agent_ids.length} agent${m.vantage_agent_ids.length === 1 ? "" : "s"}, quorum ${m.quorum}`
            ) : m.probe_mode === "agent" ? (
              m.probe_agent ? (
                <Link href={`/agents/${m.probe_agent.id}`}>{m.probe_agent.name ?? `agent ${m.probe_agent.id}`}</Link>
              ) : (
                "an agent"
              )
            ) : (
              "the server"
            )}
          </dd>
        </div>
        {config.length > 0 && (
          <div>
            <dt>Settings</dt>
            <dd>{config.map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`).join(", ")}</dd>
          </div>
        )}
        <div>
          <dt>Latency</dt>
          <dd>{m.latency_ms == null ? "—" : `${Math.round(m.latency_ms)} ms`}</dd>
        </div>
        <div>
          <dt>Last message</dt>
          <dd>{m.last_msg ?? "—"}</dd>
        </div>
        <div>
          <dt>Last checked</dt>
          <dd>
            <RelativeTime at={m.last_polled_at} />
          </dd>
        </div>
        <div>
          <dt>In this state since</dt>
          <dd>
            <RelativeTime at={m.last_status_change_at} />
          </dd>
        </div>
        <div>
          <dt>Next check</dt>
          <dd>{m.enabled ? <RelativeTime at={m.next_check_at} /> : "paused"}</dd>
        </div>
      </dl>
      <section aria-labelledby="monitor-beats-title">
        <h2 id="monitor-beats-title">Last {BEATS} checks</h2>
        <HeartbeatBar beats={heartbeats} label={`Checks of ${m.name}`} />
      </section>
      <ul class="tiles" aria-label="Uptime">
        {(["24h", "7d", "30d"] as const).map((w) => (
          <li key={w} class="tile">
            <span class="tile-count">{uptime.data ? pct(uptime.data[`pct_${w}`]) : "…"}</span>
            <span>uptime {w.replace("h", " h").replace("d", " d")}</span>
          </li>
        ))}
      </ul>
      {uptime.error !== undefined && <Notice kind="error">{messageOf(uptime.error)}</Notice>}
      <VantageTable points={m.vantage_results} quorum={m.quorum} />
      {m.check_type === "group" && <GroupMembers groupId={m.id} version={version} />}
      <MonitorHistory monitorId={m.id} fresh={fresh} version={resync.current} />
      <MonitorEvents monitorId={m.id} version={version} live={changes} />
    </article>
  );
}
