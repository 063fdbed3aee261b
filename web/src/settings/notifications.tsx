// Notifications: the sinks (create, edit in place, enable/disable, send a test, delete), the routes that
// send alerts to them, and the deliveries with their attempts; a dead one (attempts used up) can be replayed.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useLoad } from "../use-load.ts";
import { AlertRoutes } from "./alert-routes.tsx";
import { Deliveries } from "./deliveries.tsx";
import { Table } from "./table.tsx";
import { LoadError } from "./load-error.tsx";
import { SinkForm } from "./sink-form.tsx";
import { TEMPLATE_KEYS } from "../../../shared/domain/notifications/templates.ts";

export function NotificationsSection() {
  const session = useSession();
  const canEdit = session.can("admin:notifications");
  const sinks = useLoad(() => ok(api.GET("/api/v1/notifications/sinks", { params: { query: { limit: "100", sort: "name" } } })), []);
  const [secret, setSecret] = useState<string | undefined>();
  const [tested, setTested] = useState<{ ok: boolean; text: string } | undefined>();
  const [testing, setTesting] = useState<number | undefined>();
  const [editing, setEditing] = useState<number | undefined>();
  const [deliveriesTick, setDeliveriesTick] = useState(0);
  const act = useSubmit();
  const sinkPath = (id: number) => ({ params: { path: { sink_id: String(id) } } });

  // The route waits for the worker's attempt (up to 20 s) and answers what the receiver said.
  const test = (id: number, name: string) =>
    act.run(async () => {
      setTested(undefined);
      setTesting(id);
      try {
        const answer = await ok(api.POST("/api/v1/notifications/sinks/{sink_id}/test", sinkPath(id)));
        const status = answer.http_status === null ? "" : ` (HTTP ${answer.http_status})`;
        setTested({
          ok: answer.ok,
          text: `Test to "${name}": ${answer.ok ? `Delivered${status}` : `Failed: ${answer.error}`}`,
        });
        setDeliveriesTick((t) => t + 1);
      } finally {
        setTesting(undefined);
      }
    });
  const toggle = (id: number) =>
    act.run(async () => {
      await ok(api.PUT("/api/v1/notifications/sinks/{sink_id}/toggle", sinkPath(id)));
      sinks.reload();
    });
  const remove = (id: number, name: string) =>
    confirm(`Delete the sink "${name}" with its routes and deliveries?`) &&
    act.run(async () => {
      await ok(api.DELETE("/api/v1/notifications/sinks/{sink_id}", sinkPath(id)));
      sinks.reload();
    });

  if (sinks.error !== undefined) return <LoadError error={sinks.error} what="the notification settings" />;
  const list = sinks.data?.items ?? [];
  return (
    <>
      {canEdit && (
        <SinkForm
          onSaved={(s) => {
            setSecret(s);
            sinks.reload();
          }}
        />
      )}
      {secret && (
        <div class="card secret-once" role="status">
          <p>The webhook's signing secret, shown this once (requests carry its HMAC signature):</p>
          <p>
            <code class="secret">{secret}</code>
          </p>
          <button type="button" onClick={() => setSecret(undefined)}>
            I have copied it
          </button>
        </div>
      )}
      <h2>Sinks</h2>
      <Notice kind="error">{act.error}</Notice>
      <Notice kind={tested?.ok ? "success" : "error"}>{tested?.text}</Notice>
      {sinks.data && list.length === 0 && <p class="empty">No sinks yet: alerts are recorded but sent nowhere.</p>}
      <Table caption="Notification sinks" columns={["Name", "Provider", "Settings", "State"]} actions={canEdit}>
        {list.map((s) => (
          <tr key={s.id} data-sink={s.id}>
            <td data-label="Name">{s.name}</td>
            <td data-label="Provider">{s.provider_type}</td>
            <td data-label="Settings" class="meta">
              {Object.entries(s.provider_config)
                // A template is a paragraph, not a setting to read in a row: the row says the sink has one.
                .map(([k, v]) => (k in TEMPLATE_KEYS ? `${k.replace("_template", "")} templated` : `${k}: ${String(v)}`))
                .join(", ")}
            </td>
            <td data-label="State">
              <Status value={s.enabled ? "active" : "paused"} />
            </td>
            {canEdit && (
              <td class="actions">
                <button type="button" disabled={act.busy} aria-busy={testing === s.id} onClick={() => void test(s.id, s.name)}>
                  {testing === s.id ? "Sending…" : "Send a test"}
                </button>
                <button
                  type="button"
                  disabled={act.busy}
                  aria-expanded={editing === s.id}
                  onClick={() => setEditing(editing === s.id ? undefined : s.id)}
                >
                  Edit
                </button>
                <button type="button" disabled={act.busy} onClick={() => void toggle(s.id)}>
                  {s.enabled ? "Disable" : "Enable"}
                </button>
                <button type="button" class="danger" disabled={act.busy} onClick={() => void remove(s.id, s.name)}>
                  Delete
                </button>
              </td>
            )}
          </tr>
        ))}
      </Table>
      {canEdit && list.some((s) => s.id === editing) && (
        <SinkForm
          key={editing}
          sink={list.find((s) => s.id === editing)!}
          onCancel={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            sinks.reload();
          }}
        />
      )}
      <AlertRoutes sinks={list} canEdit={canEdit} />
      <Deliveries canReplay={canEdit} refresh={deliveriesTick} />
    </>
  );
}
