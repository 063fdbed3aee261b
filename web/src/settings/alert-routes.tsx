// Notification routes: which alerts (severity, event kinds, tag) go to which sink, and how each pages:
// its escalation policy and quiet hours (route-paging.tsx); the policies themselves below the routes.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice, TextInput } from "../components/field.tsx";
import { type Loaded, useLoad } from "../use-load.ts";
import { EscalationPolicies } from "./escalation-policies.tsx";
import { LoadError } from "./load-error.tsx";
import { describeQuiet, RoutePaging } from "./route-paging.tsx";
import { Table } from "./table.tsx";
import { useT } from "../i18n/use-t.ts";

const SEVERITIES = ["*", "info", "warning", "critical"] as const;
type Severity = (typeof SEVERITIES)[number];

type RouteList = paths["/api/v1/notifications/routes"]["get"]["responses"][200]["content"]["application/json"];

/** The routes are loaded by the notifications screen, which also marks the sinks none sends to. */
export function AlertRoutes({
  sinks,
  canEdit,
  routes,
}: {
  sinks: ReadonlyArray<{ id: number; name: string }>;
  canEdit: boolean;
  routes: Loaded<RouteList>;
}) {
  const t = useT();
  const policies = useLoad(() => ok(api.GET("/api/v1/notifications/escalation-policies", { params: { query: { limit: "100" } } })), []);
  const [paging, setPaging] = useState<number | undefined>();
  const [sinkId, setSinkId] = useState("");
  const [severity, setSeverity] = useState<Severity>("*");
  const [kinds, setKinds] = useState("");
  const [tag, setTag] = useState("");
  const submit = useSubmit();
  const act = useSubmit();
  const nameOf = (id: number) => sinks.find((s) => s.id === id)?.name ?? `#${id}`;
  const policyList = policies.data?.items ?? [];
  const policyName = (id: number | null) => (id == null ? "—" : (policyList.find((p) => p.id === id)?.name ?? `#${id}`));
  const pagingRoute = routes.data?.items.find((r) => r.id === paging);

  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      const event_kinds = kinds
        .split(",")
        .map((k) => k.trim())
        .filter(Boolean);
      await ok(
        api.POST("/api/v1/notifications/routes", {
          body: { sink_id: Number(sinkId) || 0, alert_severity: severity, event_kinds, tag: tag.trim() || null },
        }),
      );
      setKinds("");
      setTag("");
      routes.reload();
    });
  };

  return (
    <>
      <h2>{t("settings:routes.title")}</h2>
      <LoadError error={routes.error} what={t("settings:routes.what")} />
      <Notice kind="error">{act.error}</Notice>
      {routes.data?.items.length === 0 && <p class="empty">{t("settings:routes.empty")}</p>}
      <Table
        caption={t("settings:routes.caption")}
        columns={[
          t("settings:deliveries.sink"),
          t("settings:routes.severity"),
          t("settings:routes.kinds"),
          t("settings:routes.tag"),
          t("settings:routes.escalation"),
          t("settings:paging.quiet"),
        ]}
        actions={canEdit}
      >
        {routes.data?.items.map((r) => (
          <tr key={r.id} data-route={r.id}>
            <td data-label={t("settings:deliveries.sink")}>{nameOf(r.sink_id)}</td>
            <td data-label={t("settings:routes.severity")}>{r.alert_severity}</td>
            <td data-label={t("settings:routes.kinds")}>{r.event_kinds.join(", ") || t("settings:routes.allKinds")}</td>
            <td data-label={t("settings:routes.tag")}>{r.tag ?? "—"}</td>
            <td data-label={t("settings:routes.escalation")}>{policyName(r.escalation_policy_id)}</td>
            <td data-label={t("settings:paging.quiet")}>{describeQuiet(r.quiet_hours)}</td>
            {canEdit && (
              <td>
                <button type="button" onClick={() => setPaging(r.id)}>
                  {t("settings:routes.paging")}
                </button>
                <button
                  type="button"
                  class="danger"
                  disabled={act.busy}
                  onClick={() =>
                    void act.run(async () => {
                      await ok(api.DELETE("/api/v1/notifications/routes/{route_id}", { params: { path: { route_id: String(r.id) } } }));
                      routes.reload();
                    })
                  }
                >
                  {t("settings:delete")}
                </button>
              </td>
            )}
          </tr>
        ))}
      </Table>
      {canEdit && pagingRoute && (
        <RoutePaging
          key={pagingRoute.id}
          route={pagingRoute}
          policies={policyList}
          title={t("settings:routes.pagingTitle", { sink: nameOf(pagingRoute.sink_id) })}
          onDone={(saved) => {
            setPaging(undefined);
            if (saved) routes.reload();
          }}
        />
      )}
      {canEdit && sinks.length > 0 && (
        <form class="card" onSubmit={send} noValidate aria-labelledby="route-new">
          <h3 id="route-new">{t("settings:routes.new")}</h3>
          <Field id="route-sink" label={t("settings:deliveries.sink")} error={submit.fields.sink_id}>
            {(a11y) => (
              <select {...a11y} value={sinkId} onChange={(e) => setSinkId((e.currentTarget as HTMLSelectElement).value)}>
                <option value="">{t("settings:routes.chooseSink")}</option>
                {sinks.map((s) => (
                  <option key={s.id} value={String(s.id)}>
                    {s.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="route-severity" label={t("settings:routes.severity")} error={submit.fields.alert_severity}>
            {(a11y) => (
              <select {...a11y} value={severity} onChange={(e) => setSeverity((e.currentTarget as HTMLSelectElement).value as Severity)}>
                {SEVERITIES.map((s) => (
                  <option key={s} value={s}>
                    {s === "*" ? t("settings:routes.any") : s}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TextInput
            id="route-kinds"
            label={t("settings:routes.kindsInput")}
            // i18n-ignore: example event kinds
            placeholder="monitor.down, agent.*"
            hint={t("settings:routes.kinds.hint")}
            value={kinds}
            error={submit.fields.event_kinds}
            onValue={setKinds}
          />
          <TextInput id="route-tag" label={t("settings:routes.tagInput")} value={tag} error={submit.fields.tag} onValue={setTag} />
          <Notice kind="error">{submit.error}</Notice>
          <button type="submit" disabled={submit.busy}>
            {t("settings:routes.add")}
          </button>
        </form>
      )}
      <LoadError error={policies.error} what={t("settings:policies.what")} />
      <EscalationPolicies
        policies={policyList}
        sinks={sinks}
        canEdit={canEdit}
        onChanged={() => {
          policies.reload();
          routes.reload();
        }}
      />
    </>
  );
}
