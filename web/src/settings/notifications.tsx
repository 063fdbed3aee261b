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
import { providerName } from "../i18n/domain-text.ts";
import { useT } from "../i18n/use-t.ts";

const ROUTES_SHOWN = 100;

export function NotificationsSection() {
  const t = useT();
  if (!useSession().can("admin:notifications"))
    return <Notice kind="info">{t("settings:loadError.refused", { what: t("settings:notifications.what") })}</Notice>;
  return <Notifications />;
}

function Notifications() {
  const t = useT();
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
        const outcome = !answer.ok
          ? t("settings:notifications.testFailed", { error: answer.error })
          : answer.http_status === null
            ? t("settings:notifications.delivered")
            : t("settings:notifications.deliveredHttp", { status: answer.http_status });
        setTested({ ok: answer.ok, text: t("settings:notifications.testTo", { name, outcome }) });
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
    confirm(t("settings:notifications.confirmDelete", { name })) &&
    act.run(async () => {
      await ok(api.DELETE("/api/v1/notifications/sinks/{sink_id}", sinkPath(id)));
      sinks.reload();
    });

  if (sinks.error !== undefined) return <LoadError error={sinks.error} what={t("settings:notifications.what")} />;
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
          <p>{t("settings:notifications.secretOnce")}</p>
          <p>
            <code class="secret" data-testid="sink-secret">
              {secret}
            </code>
          </p>
          <div class="actions">
            <CopyButton text={secret} />
            <button type="button" onClick={() => setSecret(undefined)}>
              {t("settings:copiedIt")}
            </button>
          </div>
        </div>
      )}
      <h2>{t("settings:notifications.sinks")}</h2>
      <Notice kind="error">{act.error}</Notice>
      <Notice kind={tested?.ok ? "success" : "error"}>{tested?.text}</Notice>
      {sinks.data && list.length === 0 && <p class="empty">{t("settings:notifications.empty")}</p>}
      {unrouted.length > 0 && (
        <Notice kind="info">
          {unrouted.length === 1
            ? t("settings:notifications.unroutedSink", { name: unrouted[0]!.name })
            : t("settings:notifications.unrouted", { count: unrouted.length })}
        </Notice>
      )}
      <Table
        caption={t("settings:notifications.caption")}
        columns={[
          t("settings:name"),
          t("settings:notifications.provider"),
          t("settings:notifications.settings"),
          t("settings:tokens.state"),
        ]}
        actions={canEdit}
      >
        {list.map((s) => (
          <tr key={s.id} data-sink={s.id}>
            <td data-label={t("settings:name")}>{s.name}</td>
            <td data-label={t("settings:notifications.provider")}>{providerName(t, s.provider_type)}</td>
            <td data-label={t("settings:notifications.settings")} class="meta">
              <SinkSettings sink={s} />
            </td>
            <td data-label={t("settings:tokens.state")}>
              <Status value={s.enabled ? "active" : "paused"} />
              {unrouted.includes(s) && <div class="meta">{t("settings:notifications.noRoute")}</div>}
            </td>
            {canEdit && (
              <td class="actions">
                <button type="button" disabled={act.busy} aria-busy={testing === s.id} onClick={() => void test(s.id, s.name)}>
                  {testing === s.id ? t("settings:notifications.sending") : t("settings:notifications.sendTest")}
                </button>
                <button
                  type="button"
                  disabled={act.busy}
                  aria-expanded={editing === s.id}
                  onClick={() => setEditing(editing === s.id ? undefined : s.id)}
                >
                  {t("settings:edit")}
                </button>
                <button type="button" disabled={act.busy} onClick={() => void toggle(s.id)}>
                  {s.enabled ? t("settings:disable") : t("settings:enable")}
                </button>
                <button type="button" class="danger" disabled={act.busy} onClick={() => void remove(s.id, s.name)}>
                  {t("settings:delete")}
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
