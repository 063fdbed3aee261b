// A route's paging settings (docs/notifications.md, "Escalation" and "Quiet hours"): the escalation
// policy it names, and its quiet hours (an IANA zone, weekly windows, the severity held below). Saved
// with PATCH under If-Match; the API's 422 shows on the field it names.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice, TextInput } from "../components/field.tsx";
import type { Policy } from "./escalation-policies.tsx";

export type Route = paths["/api/v1/notifications/routes"]["get"]["responses"][200]["content"]["application/json"]["items"][number];
type Quiet = NonNullable<Route["quiet_hours"]>;

const DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export function describeQuiet(q: Route["quiet_hours"]): string {
  if (!q) return "—";
  const windows = q.windows.map((w) => `${w.days.join(", ")} ${w.start}-${w.end}`).join("; ");
  return `${windows} (${q.timezone}), holds below ${q.hold_below}`;
}

export function RoutePaging({
  route,
  policies,
  title,
  onDone,
}: {
  route: Route;
  policies: readonly Policy[];
  title: string;
  onDone: (saved: boolean) => void;
}) {
  const [policyId, setPolicyId] = useState(route.escalation_policy_id == null ? "" : String(route.escalation_policy_id));
  const [quietOn, setQuietOn] = useState(route.quiet_hours != null);
  const [quiet, setQuiet] = useState<Quiet>(
    route.quiet_hours ?? { timezone: browserZone(), windows: [{ days: [...DAYS], start: "22:00", end: "07:00" }], hold_below: "critical" },
  );
  const submit = useSubmit();
  const setWindow = (i: number, next: Partial<Quiet["windows"][number]>) =>
    setQuiet({ ...quiet, windows: quiet.windows.map((w, j) => (j === i ? { ...w, ...next } : w)) });

  const save = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      await ok(
        api.PATCH("/api/v1/notifications/routes/{route_id}", {
          params: { path: { route_id: String(route.id) } },
          body: { escalation_policy_id: policyId ? Number(policyId) : null, quiet_hours: quietOn ? quiet : null },
          headers: { "If-Match": `W/"${Date.parse(route.updated_at)}"` },
        }),
      );
      onDone(true);
    });
  };

  return (
    <form class="card" onSubmit={save} noValidate aria-labelledby="route-paging">
      <h3 id="route-paging">{title}</h3>
      <Field id="route-policy" label="Escalation policy" error={submit.fields.escalation_policy_id}>
        {(a11y) => (
          <select {...a11y} value={policyId} onChange={(e) => setPolicyId((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">None</option>
            {policies.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <label class="check">
        <input type="checkbox" checked={quietOn} onChange={(e) => setQuietOn((e.currentTarget as HTMLInputElement).checked)} /> Quiet hours
      </label>
      {quietOn && (
        <>
          <TextInput
            id="route-quiet-zone"
            label="Time zone"
            hint="An IANA zone such as Europe/Berlin; the windows follow its clock across DST changes."
            value={quiet.timezone}
            error={submit.fields["quiet_hours.timezone"]}
            onValue={(timezone) => setQuiet({ ...quiet, timezone })}
          />
          {quiet.windows.map((w, i) => (
            <fieldset key={i} class="card">
              <legend>Window {i + 1}</legend>
              <fieldset>
                <legend>Starts on</legend>
                {DAYS.map((d) => (
                  <label key={d} class="check">
                    <input
                      type="checkbox"
                      checked={w.days.includes(d)}
                      onChange={(e) =>
                        setWindow(i, {
                          days: (e.currentTarget as HTMLInputElement).checked
                            ? DAYS.filter((x) => x === d || w.days.includes(x))
                            : w.days.filter((x) => x !== d),
                        })
                      }
                    />{" "}
                    {d}
                  </label>
                ))}
              </fieldset>
              <TextInput
                id={`route-quiet-${i}-start`}
                label={`Window ${i + 1} starts (HH:MM)`}
                value={w.start}
                error={submit.fields[`quiet_hours.windows.${i}.start`]}
                onValue={(start) => setWindow(i, { start })}
              />
              <TextInput
                id={`route-quiet-${i}-end`}
                label={`Window ${i + 1} ends (HH:MM)`}
                hint="At or before the start: the next day."
                value={w.end}
                error={submit.fields[`quiet_hours.windows.${i}.end`] ?? submit.fields[`quiet_hours.windows.${i}.days`]}
                onValue={(end) => setWindow(i, { end })}
              />
              {quiet.windows.length > 1 && (
                <button type="button" onClick={() => setQuiet({ ...quiet, windows: quiet.windows.filter((_, j) => j !== i) })}>
                  Remove window {i + 1}
                </button>
              )}
            </fieldset>
          ))}
          <button
            type="button"
            onClick={() => setQuiet({ ...quiet, windows: [...quiet.windows, { days: ["sat", "sun"], start: "00:00", end: "24:00" }] })}
          >
            Add a window
          </button>
          <Field id="route-quiet-hold" label="Hold alerts below" error={submit.fields["quiet_hours.hold_below"]}>
            {(a11y) => (
              <select
                {...a11y}
                value={quiet.hold_below}
                onChange={(e) => setQuiet({ ...quiet, hold_below: (e.currentTarget as HTMLSelectElement).value as Quiet["hold_below"] })}
              >
                <option value="critical">critical (hold warning and info)</option>
                <option value="warning">warning (hold info only)</option>
              </select>
            )}
          </Field>
          <p class="hint">Held alerts are sent as one digest per sink when the quiet hours end; critical alerts always pass.</p>
        </>
      )}
      <Notice kind="error">{submit.error}</Notice>
      <button type="submit" disabled={submit.busy}>
        Save paging
      </button>
      <button type="button" onClick={() => onDone(false)}>
        Cancel
      </button>
    </form>
  );
}
