// Notification deliveries, newest first, filtered by state: a dead one (its attempts used up: the dead
// letters) shows its last error and can be replayed with a fresh attempt budget. An escalation step or a
// reminder says which (adr/0448); a delivery held by quiet hours says until when (adr/0450).
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useLoad } from "../use-load.ts";
import { Table } from "./table.tsx";
import { LoadError } from "./load-error.tsx";
import { RelativeTime } from "../components/time.tsx";

const STATES = ["", "dead", "pending", "retrying", "delivered", "held", "digested"] as const;
type State = (typeof STATES)[number];

/** "step 2", "step 1, pass 2", "reminder 3", or nothing for the route's own send. */
function stepOf(d: { escalation_step: number; escalation_round: number }): string | null {
  if (d.escalation_step > 0)
    return d.escalation_round > 0 ? `step ${d.escalation_step}, pass ${d.escalation_round + 1}` : `step ${d.escalation_step}`;
  return d.escalation_round > 0 ? `reminder ${d.escalation_round}` : null;
}

export function Deliveries({ canReplay, refresh }: { canReplay: boolean; refresh: number }) {
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
        <h2>Deliveries</h2>
        <div class="toolbar">
          <label class="filter">
            State
            <select value={state} onChange={(e) => setState((e.currentTarget as HTMLSelectElement).value as State)}>
              {STATES.map((s) => (
                <option key={s} value={s}>
                  {s === "" ? "all" : s === "dead" ? "dead letters" : s}
                </option>
              ))}
            </select>
          </label>
          <button type="button" onClick={() => deliveries.reload()}>
            {pending ? "Refresh (some are in flight)" : "Refresh"}
          </button>
        </div>
      </div>
      <LoadError error={deliveries.error} what="the deliveries" />
      <Notice kind="error">{replay.error}</Notice>
      {deliveries.data?.items.length === 0 && <p class="empty">{state === "dead" ? "No dead letters." : "No deliveries."}</p>}
      <Table
        caption="Notification deliveries"
        columns={["Alert", "Sink", "State", "Attempts", "Last error", "Created"]}
        actions={canReplay}
      >
        {deliveries.data?.items.map((d) => (
          <tr key={d.id} data-delivery={d.id}>
            <td data-label="Alert">
              {d.alert.title} <span class="meta">({[d.alert.kind, stepOf(d)].filter(Boolean).join(", ")})</span>
            </td>
            <td data-label="Sink">{d.sink_name ?? `#${d.sink_id}`}</td>
            <td data-label="State">
              <Status value={d.state} />
              {d.held_until && (
                <span class="meta">
                  {" "}
                  until <RelativeTime at={d.held_until} />
                </span>
              )}
            </td>
            <td data-label="Attempts">
              {d.attempt_count} / {d.max_attempts}
            </td>
            <td data-label="Last error">{d.last_error ?? "—"}</td>
            <td data-label="Created">
              <RelativeTime at={d.created_at} />
            </td>
            {canReplay && (
              <td>
                {(d.state === "dead" || d.state === "delivered") && (
                  <button
                    type="button"
                    disabled={replay.busy}
                    onClick={() =>
                      void replay.run(async () => {
                        await ok(
                          api.POST("/api/v1/notifications/deliveries/{delivery_id}/replay", {
                            params: { path: { delivery_id: String(d.id) } },
                          }),
                        );
                        deliveries.reload();
                      })
                    }
                  >
                    Replay
                  </button>
                )}
              </td>
            )}
          </tr>
        ))}
      </Table>
    </>
  );
}
