// One agent's page (/agents/<id>): who it is and where it runs, its presence, its version and the update
// available (agent-version.tsx), its telemetry charts, its capabilities (edited by an administrator), its
// events, and Revoke behind a confirmation dialog. Live:
// /agents/stream (presence, decisions: the agent and its events are read again) and /telemetry/stream
// (new samples from its host: the telemetry is read again, at most every few seconds).
import { useRef, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { LiveBadge, useStream } from "../live.tsx";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { AgentCapabilities } from "./agent-capabilities.tsx";
import { AgentEvents } from "./agent-events.tsx";
import { AgentTelemetry } from "./agent-telemetry.tsx";
import { AgentVersion } from "./agent-version.tsx";
import { RevokeDialog } from "./revoke-dialog.tsx";
import { RelativeTime } from "../components/time.tsx";
import { useT } from "../i18n/use-t.ts";

/** Telemetry arrives every few seconds from a busy fleet: read it again at most this often. */
const TELEMETRY_RELOAD_MS = 5000;

export function AgentPage({ id }: { id: string }) {
  const t = useT();
  const session = useSession();
  const isAdmin = session.can("admin:agents");
  const [version, setVersion] = useState(0);
  const [telemetryVersion, setTelemetryVersion] = useState(0);
  const agent = useLoad(() => ok(api.GET("/api/v1/agents/{agent_id}", { params: { path: { agent_id: id } } })), [id, version]);
  const [revoking, setRevoking] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const live = useStream(
    "/api/v1/agents/stream",
    (data) => {
      if (data.agent_id === Number(id)) setVersion((v) => v + 1);
    },
    () => setVersion((v) => v + 1),
  );
  const telemetryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useStream(
    "/api/v1/telemetry/stream",
    (data) => {
      const hw = agent.data?.hardware_id;
      const ids = Array.isArray(data.hardware_ids) ? data.hardware_ids : [data.hardware_id];
      if (hw == null || !ids.includes(hw) || telemetryTimer.current) return;
      telemetryTimer.current = setTimeout(() => {
        telemetryTimer.current = undefined;
        setTelemetryVersion((v) => v + 1);
      }, TELEMETRY_RELOAD_MS);
    },
    () => setTelemetryVersion((v) => v + 1),
  );

  if (agent.error !== undefined && !agent.data) return <Notice kind="error">{messageOf(agent.error)}</Notice>;
  const a = agent.data;
  if (!a) return <p aria-busy="true">{t("common:loading")}</p>;
  const name = a.name ?? a.hostname ?? t("agents:agentN", { id: a.id });
  const revocable = a.status === "active" || a.status === "pending";
  return (
    <article aria-labelledby="agent-title">
      <header class="page-head">
        <div>
          <p class="crumbs">
            <Link href="/agents">{t("agents:title")}</Link>
          </p>
          <h1 id="agent-title">
            {name} <Status value={a.status} />
          </h1>
        </div>
        <LiveBadge state={live} />
        <div class="actions">
          {isAdmin ? (
            revocable && (
              <button
                type="button"
                class="danger"
                onClick={() => {
                  setNotice(undefined);
                  setRevoking(true);
                }}
              >
                {t("agents:page.revoke")}
              </button>
            )
          ) : (
            <span class="meta">{t("agents:page.needsScope")}</span>
          )}
        </div>
      </header>
      <Notice kind="success">{notice}</Notice>
      {a.status === "revoked" && (
        <p class="notice notice-error" role="status">
          {a.revoke_reason ? t("agents:page.revokedWhy", { reason: a.revoke_reason }) : t("agents:page.revoked")}
        </p>
      )}
      {revoking && (
        <RevokeDialog
          agent={a}
          onClose={() => setRevoking(false)}
          onRevoked={() => {
            setNotice(t("agents:page.revokedNotice", { name }));
            setVersion((v) => v + 1);
          }}
        />
      )}
      <dl class="fields">
        <div>
          <dt>{t("agents:col.presence")}</dt>
          <dd>
            <Status value={a.online ? "up" : "down"} />{" "}
            {a.online ? (
              <>
                {t("agents:page.connectedSince")} <RelativeTime at={a.connected_since} />
              </>
            ) : (
              <>
                {t("agents:page.lastSeen")} <RelativeTime at={a.last_seen_at} />
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>{t("agents:col.host")}</dt>
          <dd>
            {a.hostname ?? "—"} <span class="meta">{[a.os, a.os_version, a.arch].filter(Boolean).join(" ")}</span>
          </dd>
        </div>
        <div>
          <dt>{t("agents:col.hardware")}</dt>
          <dd>
            {a.hardware_id ? (
              <Link href={`/inventory/hardware/${a.hardware_id}`}>{a.hardware_name ?? `#${a.hardware_id}`}</Link>
            ) : (
              t("agents:page.notLinked")
            )}
          </dd>
        </div>
        <div>
          <dt>{t("agents:page.address")}</dt>
          <dd>{a.reported_ip ?? "—"}</dd>
        </div>
        <AgentVersion agent={a} canUpdate={isAdmin} onQueued={() => setVersion((v) => v + 1)} />
        <div>
          <dt>{t("agents:page.fingerprint")}</dt>
          <dd>
            <code>{a.fingerprint}</code>
          </dd>
        </div>
        <div>
          <dt>{t("agents:page.enrolled")}</dt>
          <dd>
            <RelativeTime at={a.enrolled_at} />
          </dd>
        </div>
        <div>
          <dt>{t("agents:page.approved")}</dt>
          <dd>
            <RelativeTime at={a.approved_at} />
          </dd>
        </div>
        <div>
          <dt>{t("agents:page.spool")}</dt>
          <dd>{a.spool_depth == null ? "—" : t("agents:page.spoolWaiting", { count: a.spool_depth, bytes: a.spool_bytes ?? 0 })}</dd>
        </div>
        {a.notes && (
          <div>
            <dt>{t("agents:page.notes")}</dt>
            <dd>{a.notes}</dd>
          </div>
        )}
      </dl>
      <AgentTelemetry agentId={a.id} active={a.status === "active"} version={telemetryVersion + version} />
      <AgentCapabilities agent={a} canEdit={isAdmin} onSaved={() => setVersion((v) => v + 1)} />
      <AgentEvents agentId={a.id} version={version} />
    </article>
  );
}
