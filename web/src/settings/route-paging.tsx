// A route's paging settings (docs/notifications.md, "Escalation" and "Quiet hours"): the escalation
// policy it names, and its quiet hours (an IANA zone, weekly windows, the severity held below). Saved
// with PATCH under If-Match; the API's 422 shows on the field it names.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice, TextInput } from "../components/field.tsx";
import type { Policy } from "./escalation-policies.tsx";
import { i18nKey, t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

export type Route = paths["/api/v1/notifications/routes"]["get"]["responses"][200]["content"]["application/json"]["items"][number];
type Quiet = NonNullable<Route["quiet_hours"]>;

const DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
/** The days as the API names them, shown in the active language. */
const DAY_LABELS: Record<(typeof DAYS)[number], string> = {
  mon: i18nKey("settings:paging.day.mon"),
  tue: i18nKey("settings:paging.day.tue"),
  wed: i18nKey("settings:paging.day.wed"),
  thu: i18nKey("settings:paging.day.thu"),
  fri: i18nKey("settings:paging.day.fri"),
  sat: i18nKey("settings:paging.day.sat"),
  sun: i18nKey("settings:paging.day.sun"),
};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export function describeQuiet(q: Route["quiet_hours"]): string {
  if (!q) return "—";
  const windows = q.windows.map((w) => `${w.days.map((d) => t(DAY_LABELS[d])).join(", ")} ${w.start}-${w.end}`).join("; ");
  return t("settings:paging.describe", { windows, zone: q.timezone, severity: q.hold_below });
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
  const t = useT();
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
      <Field id="route-policy" label={t("settings:paging.policy")} error={submit.fields.escalation_policy_id}>
        {(a11y) => (
          <select {...a11y} value={policyId} onChange={(e) => setPolicyId((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">{t("settings:none")}</option>
            {policies.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <label class="check">
        <input type="checkbox" checked={quietOn} onChange={(e) => setQuietOn((e.currentTarget as HTMLInputElement).checked)} />{" "}
        {t("settings:paging.quiet")}
      </label>
      {quietOn && (
        <>
          <TextInput
            id="route-quiet-zone"
            label={t("settings:paging.zone")}
            hint={t("settings:paging.zone.hint")}
            value={quiet.timezone}
            error={submit.fields["quiet_hours.timezone"]}
            onValue={(timezone) => setQuiet({ ...quiet, timezone })}
          />
          {quiet.windows.map((w, i) => (
            <fieldset key={i} class="card">
              <legend>{t("settings:paging.window", { n: i + 1 })}</legend>
              <fieldset>
                <legend>{t("settings:paging.startsOn")}</legend>
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
                    {t(DAY_LABELS[d])}
                  </label>
                ))}
              </fieldset>
              <TextInput
                id={`route-quiet-${i}-start`}
                label={t("settings:paging.starts", { n: i + 1 })}
                value={w.start}
                error={submit.fields[`quiet_hours.windows.${i}.start`]}
                onValue={(start) => setWindow(i, { start })}
              />
              <TextInput
                id={`route-quiet-${i}-end`}
                label={t("settings:paging.ends", { n: i + 1 })}
                hint={t("settings:paging.ends.hint")}
                value={w.end}
                error={submit.fields[`quiet_hours.windows.${i}.end`] ?? submit.fields[`quiet_hours.windows.${i}.days`]}
                onValue={(end) => setWindow(i, { end })}
              />
              {quiet.windows.length > 1 && (
                <button type="button" onClick={() => setQuiet({ ...quiet, windows: quiet.windows.filter((_, j) => j !== i) })}>
                  {t("settings:paging.removeWindow", { n: i + 1 })}
                </button>
              )}
            </fieldset>
          ))}
          <button
            type="button"
            onClick={() => setQuiet({ ...quiet, windows: [...quiet.windows, { days: ["sat", "sun"], start: "00:00", end: "24:00" }] })}
          >
            {t("settings:paging.addWindow")}
          </button>
          <Field id="route-quiet-hold" label={t("settings:paging.hold")} error={submit.fields["quiet_hours.hold_below"]}>
            {(a11y) => (
              <select
                {...a11y}
                value={quiet.hold_below}
                onChange={(e) => setQuiet({ ...quiet, hold_below: (e.currentTarget as HTMLSelectElement).value as Quiet["hold_below"] })}
              >
                <option value="critical">{t("settings:paging.holdCritical")}</option>
                <option value="warning">{t("settings:paging.holdWarning")}</option>
              </select>
            )}
          </Field>
          <p class="hint">{t("settings:paging.digest")}</p>
        </>
      )}
      <Notice kind="error">{submit.error}</Notice>
      <button type="submit" disabled={submit.busy}>
        {t("settings:paging.save")}
      </button>
      <button type="button" onClick={() => onDone(false)}>
        {t("common:cancel")}
      </button>
    </form>
  );
}
