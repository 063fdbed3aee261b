// The "Rollouts" section of the agents screen: the rollout running or stopped (one at a time), with its
// version, wave, how many agents are in each state, why it stopped, and Resume and Cancel for an
// administrator; one that finished while the screen was open (or in the last minutes) stays shown with
// its outcome, older ones are in a collapsed list. Read again on each /agents/stream event (the page
// passes `version`) and, while a rollout has agents still to answer, every few seconds.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Dialog } from "../components/dialog.tsx";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import type { Rollout } from "./agent-updates.tsx";
import { RelativeTime } from "../components/time.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

type Summary = paths["/api/v1/agents/rollouts"]["get"]["responses"][200]["content"]["application/json"]["items"][number];

/** How often a rollout with agents still to answer is read again. */
const POLL_MS = 3000;
/** A rollout that finished this recently is shown in full, not only in the collapsed list. */
const RECENT_MS = 10 * 60_000;
const STATES = ["succeeded", "failed", "rolled_back", "started", "queued", "pending", "skipped"] as const;
const STATE_LABEL: Record<(typeof STATES)[number], string> = {
  succeeded: i18nKey("agents:state.succeeded"),
  failed: i18nKey("agents:state.failed"),
  rolled_back: i18nKey("agents:state.rolledBack"),
  started: i18nKey("agents:state.started"),
  queued: i18nKey("agents:state.queued"),
  pending: i18nKey("agents:state.pending"),
  skipped: i18nKey("agents:state.skipped"),
};
const isActive = (r: Summary) => r.state === "running" || r.state === "stopped";
const waiting = (r: Summary) => r.state === "running" || r.counts.queued + r.counts.started > 0;

export interface RolloutsSectionProps {
  canManage: boolean;
  /** Changes on each /agents/stream event and each rollout started: the list is read again. */
  version: number;
  /** Called with each periodic read, so the page reads its agents (their versions and updates) again too. */
  onProgress: () => void;
}

export function RolloutsSection({ canManage, version, onProgress }: RolloutsSectionProps) {
  const t = useT();
  const [tick, setTick] = useState(0);
  const list = useLoad(
    () => ok(api.GET("/api/v1/agents/rollouts", { params: { query: { limit: "20", sort: "id", direction: "desc" } } })),
    [version, tick],
  );
  /** Rollouts seen running or stopped on this screen: they stay shown once finished. */
  const seen = useRef(new Set<number>());
  const items = list.data?.items ?? [];
  for (const r of items) if (isActive(r)) seen.current.add(r.id);
  const reload = () => setTick((n) => n + 1);

  const busy = items.some(waiting);
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => {
      reload();
      onProgress();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [busy, list.data]);

  const shown = items.filter(
    (r) => isActive(r) || seen.current.has(r.id) || (r.finished_at && Date.now() - Date.parse(r.finished_at) < RECENT_MS),
  );
  const earlier = items.filter((r) => !shown.includes(r));
  return (
    <section aria-labelledby="rollouts-title">
      <h2 id="rollouts-title">{t("agents:rollouts.title")}</h2>
      {list.error !== undefined && <Notice kind="error">{messageOf(list.error)}</Notice>}
      {list.data && shown.length === 0 && <p class="empty">{t("agents:rollouts.none")}</p>}
      {shown.map((r) => (
        <RolloutCard key={r.id} rollout={r} canManage={canManage} onChanged={reload} />
      ))}
      {earlier.length > 0 && (
        <details class="recent-rollouts">
          <summary>{t("agents:rollouts.earlier", { n: earlier.length })}</summary>
          <ul>
            {earlier.map((r) => (
              <li key={r.id}>
                {t("agents:rollouts.name", { id: r.id, version: r.version })} <Status value={r.state} />{" "}
                <span class="meta">
                  {t("agents:rollouts.outcome", {
                    succeeded: r.counts.succeeded,
                    failed: r.counts.failed + r.counts.rolled_back,
                    skipped: r.counts.skipped,
                  })}
                  {r.finished_at && (
                    <>
                      {t("agents:rollouts.finished")} <RelativeTime at={r.finished_at} />
                    </>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function RolloutCard({ rollout: r, canManage, onChanged }: { rollout: Summary; canManage: boolean; onChanged: () => void }) {
  const t = useT();
  const act = useSubmit();
  const [confirming, setConfirming] = useState(false);
  const [showTargets, setShowTargets] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const sent = r.total - r.counts.skipped;
  const done = r.counts.succeeded + r.counts.failed + r.counts.rolled_back;
  const titleId = `rollout-${r.id}-title`;
  /** Cancel and resume act on the rollout as this screen shows it: changed since, the API answers 412. */
  const ifMatch = { "If-Match": `W/"${Date.parse(r.updated_at)}"` };
  const resume = () =>
    act.run(async () => {
      await ok(
        api.POST("/api/v1/agents/rollouts/{rollout_id}/resume", { params: { path: { rollout_id: String(r.id) } }, headers: ifMatch }),
      );
      onChanged();
    });
  const cancel = () =>
    act.run(async () => {
      await ok(api.POST("/api/v1/agents/rollouts/{rollout_id}/cancel", { params: { path: { rollout_id: String(r.id) } } }));
      setConfirming(false);
      heading.current?.focus();
      onChanged();
    });
  /** Keeps the rollout: the dialog closes and the focus goes back to its button (an unmounted Dialog tells nobody). */
  const keep = () => {
    setConfirming(false);
    setTimeout(() => (cancelButton.current ?? heading.current)?.focus(), 0);
  };
  return (
    <article class="card rollout" data-rollout={r.id} aria-labelledby={titleId}>
      <h3 id={titleId} ref={heading} tabIndex={-1}>
        {t("agents:rollouts.name", { id: r.id, version: r.version })} <Status value={r.state} />
      </h3>
      <p>
        {r.current_wave === 0 ? t("agents:rollouts.noWave") : t("agents:rollouts.wave", { wave: r.current_wave, waves: r.waves })}
        <progress max={Math.max(1, sent)} value={done} aria-label={t("agents:rollouts.doneLabel", { id: r.id })} />
        {t("agents:rollouts.done", { done, count: sent })}
      </p>
      <ul class="rollout-counts" aria-label={t("agents:rollouts.byState", { id: r.id })}>
        {STATES.map((s) => (
          <li key={s} data-state={s}>
            <span class="count-label">{t(STATE_LABEL[s])}</span> <strong>{r.counts[s]}</strong>
          </li>
        ))}
      </ul>
      <p class="meta">
        {t("agents:rollouts.settings", { percent: r.wave_percent, count: r.failure_threshold, seconds: r.wave_timeout_seconds })}
        {r.failures_acknowledged > 0 ? t("agents:rollouts.acknowledged", { count: r.failures_acknowledged }) : ""}.
      </p>
      {r.stop_reason && (
        <p class="notice notice-error stop-reason">
          <strong>{t("agents:rollouts.stopped")}</strong> {r.stop_reason}
        </p>
      )}
      <Notice kind="error">{act.error}</Notice>
      {canManage && isActive(r) && (
        <div class="actions">
          {r.state === "stopped" && (
            <button type="button" class="primary" disabled={act.busy} onClick={() => void resume()}>
              {t("agents:rollouts.resume")}
            </button>
          )}
          <button type="button" class="danger" ref={cancelButton} disabled={act.busy} onClick={() => setConfirming(true)}>
            {t("agents:rollouts.cancelAsk")}
          </button>
        </div>
      )}
      {confirming && (
        <Dialog title={t("agents:rollouts.cancelTitle", { id: r.id })} onClose={keep}>
          <p>{t("agents:rollouts.cancelText", { count: r.counts.pending, answering: r.counts.queued + r.counts.started })}</p>
          <Notice kind="error">{act.error}</Notice>
          <div class="actions">
            <button type="button" class="danger" disabled={act.busy} onClick={() => void cancel()}>
              {t("agents:rollouts.cancel")}
            </button>
            <button type="button" onClick={keep}>
              {t("agents:rollouts.keep")}
            </button>
          </div>
        </Dialog>
      )}
      <details onToggle={(e) => setShowTargets((e.currentTarget as HTMLDetailsElement).open)}>
        <summary>{t("agents:rollouts.targets", { id: r.id })}</summary>
        {showTargets && <Targets id={r.id} updatedAt={r.updated_at} counts={r.counts} />}
      </details>
    </article>
  );
}

/** The rollout's agents with their wave, state and error; read when opened, and again as the rollout changes. */
function Targets({ id, updatedAt, counts }: { id: number; updatedAt: string; counts: Summary["counts"] }) {
  const t = useT();
  const one = useLoad<Rollout>(
    () => ok(api.GET("/api/v1/agents/rollouts/{rollout_id}", { params: { path: { rollout_id: String(id) } } })),
    [id, updatedAt, JSON.stringify(counts)],
  );
  if (one.error !== undefined) return <Notice kind="error">{messageOf(one.error)}</Notice>;
  return (
    <table class="compact">
      <caption class="visually-hidden">{t("agents:rollouts.targets", { id })}</caption>
      <thead>
        <tr>
          <th scope="col">{t("agents:targets.agent")}</th>
          <th scope="col">{t("agents:targets.wave")}</th>
          <th scope="col">{t("agents:targets.state")}</th>
          <th scope="col">{t("agents:targets.error")}</th>
        </tr>
      </thead>
      <tbody>
        {one.data?.targets.map((x) => (
          <tr key={x.agent_id}>
            <td>
              <Link href={`/agents/${x.agent_id}`}>{x.hostname ?? t("agents:agentN", { id: x.agent_id })}</Link>
            </td>
            <td>{x.wave === 0 ? "—" : x.wave}</td>
            <td>
              <Status value={x.state} />
            </td>
            <td>{x.error ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
