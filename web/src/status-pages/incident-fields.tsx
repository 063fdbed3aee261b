// What the incident screens share: the incident's types, its impact select, and the affected items as
// checkboxes of the page's own items by public name (the API takes only what the page lists: anything
// else is its 422 naming `affected[i]`), sent as {kind, monitor_id | service_id | tag}.
import type { paths } from "../api/client.ts";
import { Field } from "../components/field.tsx";
import type { StatusPage } from "./page-draft.ts";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

export type Incident =
  paths["/api/v1/status-pages/{page_id}/incidents/{incident_id}"]["get"]["responses"][200]["content"]["application/json"];
export type Impact = Incident["impact"];
export type IncidentStatus = Incident["status"];
export type Affected = { kind: "monitor"; monitor_id: number } | { kind: "service"; service_id: number } | { kind: "tag"; tag: string };

export const IMPACTS: Impact[] = ["none", "minor", "major", "critical"];
export const STATUSES: IncidentStatus[] = ["investigating", "identified", "monitoring", "resolved"];
/** The words shown for an impact and a status (the API's values are the English ones). */
export const IMPACT_LABEL: Record<Impact, string> = {
  none: i18nKey("status-pages:impact.none"),
  minor: i18nKey("status-pages:impact.minor"),
  major: i18nKey("status-pages:impact.major"),
  critical: i18nKey("status-pages:impact.critical"),
};
export const STATUS_LABEL: Record<IncidentStatus, string> = {
  investigating: i18nKey("status-pages:status.investigating"),
  identified: i18nKey("status-pages:status.identified"),
  monitoring: i18nKey("status-pages:status.monitoring"),
  resolved: i18nKey("status-pages:status.resolved"),
};

/** The If-Match header of an incident as loaded (its ETag is its updated_at in epoch ms). */
export const ifMatch = (i: { updated_at: string } | undefined): Record<string, string> =>
  i ? { "If-Match": `W/"${Date.parse(i.updated_at)}"` } : {};

/** A key naming what an item or an affected entry points at, to compare the two. */
export function refKey(a: { kind: string; monitor_id?: number | null; service_id?: number | null; tag?: string | null }): string {
  if (a.kind === "monitor") return `monitor:${a.monitor_id}`;
  if (a.kind === "service") return `service:${a.service_id}`;
  return `tag:${a.tag}`;
}

/** The page's items as choices: what each points at and its public name (a tag item's tag without one). */
export function choicesOf(page: StatusPage): { key: string; label: string; affected: Affected }[] {
  const out = new Map<string, { key: string; label: string; affected: Affected }>();
  for (const s of page.sections) {
    for (const it of s.items) {
      const affected: Affected | undefined =
        it.kind === "monitor" && it.monitor_id != null
          ? { kind: "monitor", monitor_id: it.monitor_id }
          : it.kind === "service" && it.service_id != null
            ? { kind: "service", service_id: it.service_id }
            : it.kind === "tag" && it.tag
              ? { kind: "tag", tag: it.tag }
              : undefined;
      if (!affected) continue;
      const key = refKey(affected);
      if (!out.has(key)) out.set(key, { key, label: it.public_name || (it.tag ?? key), affected });
    }
  }
  return [...out.values()];
}

/** The 422 of `affected` or any of its entries, shown once at the checkboxes. */
export const affectedError = (fields: Record<string, string>) =>
  Object.entries(fields).find(([k]) => k === "affected" || k.startsWith("affected."))?.[1];

export function ImpactField({
  id,
  value,
  error,
  onValue,
}: {
  id: string;
  value: Impact;
  error?: string | undefined;
  onValue: (v: Impact) => void;
}) {
  const t = useT();
  return (
    <Field id={id} label={t("status-pages:incident.impact")} error={error}>
      {(a11y) => (
        <select {...a11y} value={value} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value as Impact)}>
          {IMPACTS.map((i) => (
            <option key={i} value={i}>
              {t(IMPACT_LABEL[i])}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function AffectedField({
  page,
  chosen,
  error,
  onChosen,
}: {
  page: StatusPage;
  /** The chosen items' refKeys. */
  chosen: string[];
  error?: string | undefined;
  onChosen: (keys: string[]) => void;
}) {
  const t = useT();
  const choices = choicesOf(page);
  return (
    <fieldset class={`plain${error ? " field-invalid" : ""}`}>
      <legend>{t("status-pages:incident.affected")}</legend>
      {choices.length === 0 && <p class="empty">{t("status-pages:incident.noItems")}</p>}
      {choices.map((c) => (
        <label key={c.key} class="check row">
          <input
            type="checkbox"
            checked={chosen.includes(c.key)}
            onChange={() => onChosen(chosen.includes(c.key) ? chosen.filter((k) => k !== c.key) : [...chosen, c.key])}
          />{" "}
          {c.label}
        </label>
      ))}
      {error && (
        <small class="field-error" role="alert">
          {error}
        </small>
      )}
    </fieldset>
  );
}

/** The chosen keys as the API's `affected` list, in the page's order. */
export const affectedOf = (page: StatusPage, chosen: string[]): Affected[] =>
  choicesOf(page)
    .filter((c) => chosen.includes(c.key))
    .map((c) => c.affected);
