// Notification deliveries, newest first, filtered by state: a dead one (its attempts used up: the dead
// letters) shows its last error and can be replayed with a fresh attempt budget. An escalation step or a
// reminder says which (adr/0448); a delivery held by quiet hours says until when (adr/0450).
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { type Submit, useSubmit } from "../auth/use-submit.ts";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useLoad } from "../use-load.ts";
import { Table } from "./table.tsx";
import { LoadError } from "./load-error.tsx";
import { RelativeTime } from "../components/time.tsx";
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

const STATES = ["", "dead", "pending", "retrying", "delivered", "held", "digested"] as const;
type State = (typeof STATES)[number];

/** "step 2", "step 1, pass 2", "reminder 3", or nothing for the route's own send. */
function stepOf(d: { escalation_step: number; escalation_round: number }): string | null {
  if (d.escalation_step > 0)
    return d.escalation_round > 0
      ? t("settings:deliveries.stepPass", { step: d.escalation_step, pass: d.escalation_round + 1 })
      : t("settings:deliveries.step", { step: d.escalation_step });
  return d.escalation_round > 0 ? t("settings:deliveries.reminder", { n: d.escalation_round }) : null;
}

/** A delivery's attempts, last error and when it was queued: three cells of a deliveries table. */
export function DeliveryProgress({
  delivery: d,
}: {
  delivery: { attempt_count: number; max_attempts: number; last_error: string | null; created_at: string };
}) {
  const t = useT();
  return (
    <>
      <td data-label={t("settings:deliveries.attempts")}>
        {d.attempt_count} / {d.max_attempts}
      </td>
      <td data-label={t("settings:deliveries.lastError")}>{d.last_error ?? "—"}</td>
      <td data-label={t("settings:deliveries.created")}>
        <RelativeTime at={d.created_at} />
      </td>
    </>
  );
}

/** Replay for a delivery that is finished (delivered, or dead: its attempts used up); nothing otherwise. */
export function ReplayButton({ state, submit, replay }: { state: string; submit: Submit; replay: () => Promise<void> }) {
  const t = useT();
  if (state !== "dead" && state !== "delivered") return null;
  return (
    <button type="button" disabled={submit.busy} onClick={() => void submit.run(replay)}>
      {t("settings:deliveries.replay")}
    </button>
  );
}

export function Deliveries({ canReplay, refresh }: { canReplay: boolean; refresh: number }) {
  const t = useT();
  const [state, setState] = useState<State>("");
  const deliveries = useLoad(
    () =>
      ok(
        api.GET("/api/v1/notifications/deliveries", {
          params: { query: { limit: "50", sort: "created_at", direction: "desc", ...(state ? { state } : {}) } },
        }),
      ),
    [state, refresh],
  );
  const replay = useSubmit();
  const pending = deliveries.data?.items.some((d) => d.state === "pending" || d.state === "retrying");

  return (
    <>
      <div class="page-head">
        <h2>{t("settings:deliveries.title")}</h2>
        <div class="toolbar">
          <label class="filter">
            {t("settings:deliveries.state")}
            <select value={state} onChange={(e) => setState((e.currentTarget as HTMLSelectElement).value as State)}>
              {STATES.map((s) => (
                <option key={s} value={s}>
                  {s === "" ? t("settings:deliveries.all") : s === "dead" ? t("settings:deliveries.deadLetters") : s}
                </option>
              ))}
            </select>
          </label>
          <button type="button" onClick={() => deliveries.reload()}>
            {pending ? t("settings:deliveries.refreshInFlight") : t("settings:deliveries.refresh")}
          </button>
        </div>
      </div>
      <LoadError error={deliveries.error} what={t("settings:deliveries.what")} />
      <Notice kind="error">{replay.error}</Notice>
      {deliveries.data?.items.length === 0 && (
        <p class="empty">{state === "dead" ? t("settings:deliveries.noDead") : t("settings:deliveries.none")}</p>
      )}
      <Table
        caption={t("settings:deliveries.caption")}
        columns={[
          t("settings:deliveries.alert"),
          t("settings:deliveries.sink"),
          t("settings:deliveries.state"),
          t("settings:deliveries.attempts"),
          t("settings:deliveries.lastError"),
          t("settings:deliveries.created"),
        ]}
        actions={canReplay}
      >
        {deliveries.data?.items.map((d) => (
          <tr key={d.id} data-delivery={d.id}>
            <td data-label={t("settings:deliveries.alert")}>
              {d.alert.title} <span class="meta">({[d.alert.kind, stepOf(d)].filter(Boolean).join(", ")})</span>
            </td>
            <td data-label={t("settings:deliveries.sink")}>{d.sink_name ?? `#${d.sink_id}`}</td>
            <td data-label={t("settings:deliveries.state")}>
              <Status value={d.state} />
              {d.held_until && (
                <span class="meta">
                  {" "}
                  {t("settings:deliveries.until")} <RelativeTime at={d.held_until} />
                </span>
              )}
            </td>
            <DeliveryProgress delivery={d} />
            {canReplay && (
              <td>
                <ReplayButton
                  state={d.state}
                  submit={replay}
                  replay={async () => {
                    await ok(
                      api.POST("/api/v1/notifications/deliveries/{delivery_id}/replay", {
                        params: { path: { delivery_id: String(d.id) } },
                      }),
                    );
                    deliveries.reload();
                  }}
                />
              </td>
            )}
          </tr>
        ))}
      </Table>
    </>
  );
}
