// Notifications: the sinks (create, edit in place, enable/disable, send a test, delete), the routes that
// send alerts to them, and the deliveries with their attempts; a dead one (attempts used up) can be replayed.
// Every read here needs admin:notifications, so a role without it is told so and nothing is requested.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { CopyButton } from "../components/copy-button.tsx";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { useLoad } from "../use-load.ts";
import { AlertRoutes } from "./alert-routes.tsx";
import { Deliveries } from "./deliveries.tsx";
import { Table } from "./table.tsx";
import { LoadError } from "./load-error.tsx";
import { SinkForm } from "./sink-form.tsx";
import { SinkSettings } from "./sink-settings.tsx";

const ROUTES_SHOWN = 100;

export function NotificationsSection() {
  if (!useSession().can("admin:notifications"))
    return <Notice kind="info">Your role cannot see the notification settings; an administrator can.</Notice>;
  return <Notifications />;
}

function Notifications() {
  const canEdit = useSession().can("admin:notifications");
  const sinks = useLoad(() => ok(api.GET("/api/v1/notifications/sinks", { params: { query: { limit: "100", sort: "name" } } })), []);
  // Loaded here, not only by the routes' table: a sink no route sends to is marked in the sinks' list.
  const routes = useLoad(
    () => ok(api.GET("/api/v1/notifications/routes", { params: { query: { limit: String(ROUTES_SHOWN) } } })),
    [sinks.data?.items.length],
  );
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
  // Only said once every route has been read: past one page of routes it cannot be told.
  const routed = new Set(
    routes.data && routes.data.total <= ROUTES_SHOWN ? routes.data.items.map((r) => r.sink_id) : list.map((s) => s.id),
  );
  const unrouted = list.filter((s) => !routed.has(s.id));
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
            <code class="secret" data-testid="sink-secret">
              {secret}
            </code>
          </p>
          <div class="actions">
            <CopyButton text={secret} />
            <button type="button" onClick={() => setSecret(undefined)}>
              I have copied it
            </button>
          </div>
        </div>
      )}
      <h2>Sinks</h2>
      <Notice kind="error">{act.error}</Notice>
      <Notice kind={tested?.ok ? "success" : "error"}>{tested?.text}</Notice>
      {sinks.data && list.length === 0 && <p class="empty">No sinks yet: alerts are recorded but sent nowhere.</p>}
      {unrouted.length > 0 && (
        <Notice kind="info">
          {`${unrouted.length === 1 ? `The sink "${unrouted[0]!.name}" receives` : `${unrouted.length} sinks receive`} nothing but tests: no route sends alerts to ${unrouted.length === 1 ? "it" : "them"} yet. Add a route under Routes below.`}
        </Notice>
      )}
      <Table caption="Notification sinks" columns={["Name", "Provider", "Settings", "State"]} actions={canEdit}>
        {list.map((s) => (
          <tr key={s.id} data-sink={s.id}>
            <td data-label="Name">{s.name}</td>
            <td data-label="Provider">{s.provider_type}</td>
            <td data-label="Settings" class="meta">
              <SinkSettings sink={s} />
            </td>
            <td data-label="State">
              <Status value={s.enabled ? "active" : "paused"} />
              {unrouted.includes(s) && <div class="meta">no route yet</div>}
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
      <AlertRoutes sinks={list} canEdit={canEdit} routes={routes} />
      <Deliveries canReplay={canEdit} refresh={deliveriesTick} />
    </>
  );
}
