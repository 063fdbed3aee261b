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
      <h2>Routes</h2>
      <LoadError error={routes.error} what="the routes" />
      <Notice kind="error">{act.error}</Notice>
      {routes.data?.items.length === 0 && <p class="empty">No routes: a sink receives only its tests.</p>}
      <Table
        caption="Notification routes"
        columns={["Sink", "Severity", "Event kinds", "Tag", "Escalation", "Quiet hours"]}
        actions={canEdit}
      >
        {routes.data?.items.map((r) => (
          <tr key={r.id} data-route={r.id}>
            <td data-label="Sink">{nameOf(r.sink_id)}</td>
            <td data-label="Severity">{r.alert_severity}</td>
            <td data-label="Event kinds">{r.event_kinds.join(", ") || "all"}</td>
            <td data-label="Tag">{r.tag ?? "—"}</td>
            <td data-label="Escalation">{policyName(r.escalation_policy_id)}</td>
            <td data-label="Quiet hours">{describeQuiet(r.quiet_hours)}</td>
            {canEdit && (
              <td>
                <button type="button" onClick={() => setPaging(r.id)}>
                  Paging…
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
                  Delete
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
          title={`Paging of the route to ${nameOf(pagingRoute.sink_id)}`}
          onDone={(saved) => {
            setPaging(undefined);
            if (saved) routes.reload();
          }}
        />
      )}
      {canEdit && sinks.length > 0 && (
        <form class="card" onSubmit={send} noValidate aria-labelledby="route-new">
          <h3 id="route-new">New route</h3>
          <Field id="route-sink" label="Sink" error={submit.fields.sink_id}>
            {(a11y) => (
              <select {...a11y} value={sinkId} onChange={(e) => setSinkId((e.currentTarget as HTMLSelectElement).value)}>
                <option value="">Choose a sink</option>
                {sinks.map((s) => (
                  <option key={s.id} value={String(s.id)}>
                    {s.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="route-severity" label="Severity" error={submit.fields.alert_severity}>
            {(a11y) => (
              <select {...a11y} value={severity} onChange={(e) => setSeverity((e.currentTarget as HTMLSelectElement).value as Severity)}>
                {SEVERITIES.map((s) => (
                  <option key={s} value={s}>
                    {s === "*" ? "any" : s}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TextInput
            id="route-kinds"
            label="Event kinds (comma-separated)"
            placeholder="monitor.down, agent.*"
            hint="Empty: every kind."
            value={kinds}
            error={submit.fields.event_kinds}
            onValue={setKinds}
          />
          <TextInput id="route-tag" label="Only for the tag (optional)" value={tag} error={submit.fields.tag} onValue={setTag} />
          <Notice kind="error">{submit.error}</Notice>
          <button type="submit" disabled={submit.busy}>
            Add route
          </button>
        </form>
      )}
      <LoadError error={policies.error} what="the escalation policies" />
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
