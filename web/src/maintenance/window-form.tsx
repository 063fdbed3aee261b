// Create and edit a maintenance window (/maintenance/new, /maintenance/<id>): every field of the API
// (docs/monitors.md, Maintenance windows): name, description, enabled; one-off (from, until) or
// recurring (a cron pattern in a time zone, for a number of minutes, optionally between two dates); what
// it covers (monitors by name, an inventory node, a site, a tag). The window's state now is shown above
// the form. The API's 422 is shown on each field; an edit sends If-Match with the version it loaded, so a
// concurrent change is a 412 shown with "Load their version", never overwritten. Delete… asks first.
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { ApiProblem, messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice, TextInput } from "../components/field.tsx";
import { RefPicker } from "../components/ref-picker.tsx";
import { SaveBar } from "../components/save-bar.tsx";
import { Status } from "../components/status.tsx";
import { GROUPS } from "../inventory/groups.ts";
import { TARGETS } from "../monitoring/target-kinds.ts";
import { Link, navigate } from "../router.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { DeleteWindowDialog } from "./delete-window-dialog.tsx";
import { MonitorIdsField } from "./monitor-ids-field.tsx";
import { scheduleText, windowState } from "./window-text.ts";

interface Draft {
  name: string;
  description: string;
  enabled: boolean;
  kind: "one_off" | "recurring";
  /** `datetime-local` values, in the browser's time zone. */
  starts_at: string;
  ends_at: string;
  cron: string;
  duration_minutes: string;
  timezone: string;
  monitor_ids: number[];
  target_type: string;
  target_id: string;
  site_id: string;
  tag: string;
}

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const EMPTY: Draft = {
  name: "",
  description: "",
  enabled: true,
  kind: "one_off",
  starts_at: "",
  ends_at: "",
  cron: "",
  duration_minutes: "",
  timezone: BROWSER_ZONE,
  monitor_ids: [],
  target_type: "",
  target_id: "",
  site_id: "",
  tag: "",
};

const text = (v: number | string | null | undefined) => (v == null ? "" : String(v));
/** A number as a number; anything else as typed, so the API's 422 names the field. */
const num = (raw: string) => (raw.trim() !== "" && Number.isFinite(Number(raw)) ? Number(raw) : raw);
const pad = (n: number) => String(n).padStart(2, "0");
/** An instant as a `datetime-local` value in the browser's time zone. */
function localInput(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
/** A `datetime-local` value (the browser's time zone) as the ISO instant with a zone the API takes. */
const instant = (local: string) => (local === "" ? null : new Date(local).toISOString());

/** The body of create and of PATCH: every field, so a PATCH leaves nothing of the old shape behind. */
function bodyOf(d: Draft) {
  const recurring = d.kind === "recurring";
  return {
    name: d.name.trim(),
    description: d.description.trim() === "" ? null : d.description.trim(),
    enabled: d.enabled,
    starts_at: instant(d.starts_at),
    ends_at: instant(d.ends_at),
    // The API tells the kinds apart by the cron pattern: a one-off window has none.
    cron: recurring ? d.cron.trim() || null : null,
    duration_minutes: recurring && d.duration_minutes.trim() !== "" ? num(d.duration_minutes.trim()) : null,
    timezone: recurring ? d.timezone.trim() || null : null,
    monitor_ids: d.monitor_ids,
    target_type: d.target_type || null,
    target_id: d.target_type && d.target_id !== "" ? num(d.target_id) : null,
    site_id: d.site_id !== "" ? num(d.site_id) : null,
    tag: d.tag.trim() === "" ? null : d.tag.trim(),
  };
}

export function WindowForm({ id }: { id?: string | undefined }) {
  const t = useT();
  const creating = id === undefined;
  const session = useSession();
  const canWrite = session.can("write:monitors");
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [version, setVersion] = useState<number | undefined>();
  const [conflict, setConflict] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const submit = useSubmit();
  const loaded = useLoad(
    async () =>
      creating ? undefined : ok(api.GET("/api/v1/monitors/maintenance-windows/{window_id}", { params: { path: { window_id: id } } })),
    [id],
  );

  useEffect(() => {
    const w = loaded.data;
    if (!w) return;
    setDraft({
      name: w.name,
      description: w.description ?? "",
      enabled: w.enabled,
      kind: w.kind,
      starts_at: localInput(w.starts_at),
      ends_at: localInput(w.ends_at),
      cron: w.cron ?? "",
      duration_minutes: text(w.duration_minutes),
      timezone: w.timezone ?? (w.kind === "recurring" ? "UTC" : BROWSER_ZONE),
      monitor_ids: w.monitor_ids,
      target_type: w.target_type ?? "",
      target_id: text(w.target_id),
      site_id: text(w.site_id),
      tag: w.tag ?? "",
    });
    // The server's ETag is updated_at in epoch ms (functions/routes/updated-at-etag.ts).
    setVersion(Date.parse(w.updated_at));
    setConflict(false);
  }, [loaded.data]);

  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));

  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      setConflict(false);
      // The body's types are the API's; values typed wrong on purpose reach it as typed, for its 422.
      const body = bodyOf(draft) as never;
      try {
        if (creating) await ok(api.POST("/api/v1/monitors/maintenance-windows", { body }));
        else
          await ok(
            api.PATCH("/api/v1/monitors/maintenance-windows/{window_id}", {
              params: { path: { window_id: id } },
              body,
              headers: version !== undefined ? { "If-Match": `W/"${version}"` } : {},
            }),
          );
        navigate("/maintenance");
      } catch (err) {
        if (err instanceof ApiProblem && err.status === 412) setConflict(true);
        throw err;
      }
    });
  };

  if (creating && !canWrite) return <Notice kind="error">{t("maintenance:form.forbidden")}</Notice>;
  if (!creating && loaded.error !== undefined && !loaded.data) return <Notice kind="error">{messageOf(loaded.error)}</Notice>;
  if (!creating && !loaded.data) return <p aria-busy="true">{t("common:loading")}</p>;
  const w = loaded.data;
  const state = w && windowState(w);
  const f = submit.fields;
  const target = TARGETS[draft.target_type];
  const recurring = draft.kind === "recurring";
  return (
    <section aria-labelledby="form-title" class="form-page window-form">
      <p class="crumbs">
        <Link href="/maintenance">{t("maintenance:title")}</Link>
      </p>
      <header class="page-head">
        <h1 id="form-title">{w ? (canWrite ? t("maintenance:form.edit", { name: w.name }) : w.name) : t("maintenance:new")}</h1>
        {w && session.can("delete:monitors") && (
          <div class="actions">
            <button type="button" class="danger" onClick={() => setDeleting(true)}>
              {t("maintenance:form.delete")}
            </button>
          </div>
        )}
      </header>
      {w && state && (
        <p class="window-state" data-state={state.status}>
          <Status value={state.status} /> {state.detail}{" "}
          <span class="meta">{t("maintenance:form.schedule", { schedule: scheduleText(w) })}</span>
        </p>
      )}
      {deleting && w && <DeleteWindowDialog window={w} version={version} onClose={() => setDeleting(false)} />}
      <form onSubmit={send} noValidate>
        <fieldset disabled={!canWrite} class="plain">
          <TextInput
            id="window-name"
            label={t("maintenance:col.name")}
            value={draft.name}
            error={f.name}
            onValue={(name) => set({ name })}
          />
          <TextInput
            id="window-description"
            label={t("maintenance:form.description")}
            value={draft.description}
            error={f.description}
            hint={t("maintenance:form.descriptionHint")}
            onValue={(description) => set({ description })}
          />
          <fieldset>
            <legend>{t("maintenance:col.when")}</legend>
            <label class="check row">
              <input type="radio" name="window-kind" checked={!recurring} onChange={() => set({ kind: "one_off" })} />{" "}
              {t("maintenance:form.once")}
            </label>
            <label class="check row">
              <input type="radio" name="window-kind" checked={recurring} onChange={() => set({ kind: "recurring" })} />{" "}
              {t("maintenance:form.recurring")}
            </label>
            {recurring && (
              <>
                <TextInput
                  id="window-cron"
                  label={t("maintenance:form.cron")}
                  value={draft.cron}
                  error={f.cron}
                  hint={t("maintenance:form.cronHint")}
                  onValue={(cron) => set({ cron })}
                />
                <TextInput
                  id="window-duration"
                  label={t("maintenance:form.lasts")}
                  inputMode="numeric"
                  value={draft.duration_minutes}
                  error={f.duration_minutes}
                  hint={t("maintenance:form.lastsHint")}
                  onValue={(duration_minutes) => set({ duration_minutes })}
                />
                <TextInput
                  id="window-timezone"
                  label={t("maintenance:form.timezone")}
                  value={draft.timezone}
                  error={f.timezone}
                  hint={t("maintenance:form.timezoneHint", { zone: BROWSER_ZONE })}
                  onValue={(timezone) => set({ timezone })}
                />
              </>
            )}
            <Field
              id="window-starts"
              label={recurring ? t("maintenance:form.notBefore") : t("maintenance:form.starts")}
              error={f.starts_at}
              hint={recurring ? t("maintenance:form.notBeforeHint") : t("maintenance:form.yourZone")}
            >
              {(a11y) => (
                <input
                  {...a11y}
                  type="datetime-local"
                  value={draft.starts_at}
                  onInput={(e) => set({ starts_at: (e.currentTarget as HTMLInputElement).value })}
                />
              )}
            </Field>
            <Field
              id="window-ends"
              label={recurring ? t("maintenance:form.notAfter") : t("maintenance:form.ends")}
              error={f.ends_at}
              hint={recurring ? t("maintenance:form.notAfterHint") : t("maintenance:form.yourZone")}
            >
              {(a11y) => (
                <input
                  {...a11y}
                  type="datetime-local"
                  value={draft.ends_at}
                  onInput={(e) => set({ ends_at: (e.currentTarget as HTMLInputElement).value })}
                />
              )}
            </Field>
          </fieldset>
          <fieldset>
            <legend>{t("maintenance:form.covers")}</legend>
            <p class="meta">{t("maintenance:form.coversText")}</p>
            <MonitorIdsField ids={draft.monitor_ids} onIds={(monitor_ids) => set({ monitor_ids })} error={f.monitor_ids} />
            <Field id="window-target-type" label={t("maintenance:form.node")} error={f.target_type} hint={t("maintenance:form.nodeHint")}>
              {(a11y) => (
                <select
                  {...a11y}
                  value={draft.target_type}
                  onChange={(e) => set({ target_type: (e.currentTarget as HTMLSelectElement).value, target_id: "" })}
                >
                  <option value="">{t("maintenance:form.none")}</option>
                  {Object.entries(TARGETS).map(([k, kind]) => (
                    <option key={k} value={k}>
                      {t(kind.label)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {target && (
              <Field key={draft.target_type} id="window-target" label={t(target.label)} error={f.target_id}>
                {(a11y) => (
                  <RefPicker source={target.source} value={draft.target_id} onValue={(target_id) => set({ target_id })} a11y={a11y} />
                )}
              </Field>
            )}
            <Field id="window-site" label={t("maintenance:form.site")} error={f.site_id} hint={t("maintenance:form.siteHint")}>
              {(a11y) => <RefPicker source={GROUPS.sites} value={draft.site_id} onValue={(site_id) => set({ site_id })} a11y={a11y} />}
            </Field>
            <TextInput
              id="window-tag"
              label={t("maintenance:form.tag")}
              value={draft.tag}
              error={f.tag}
              hint={t("maintenance:form.tagHint")}
              onValue={(tag) => set({ tag })}
            />
          </fieldset>
          <label class="check row">
            <input type="checkbox" checked={draft.enabled} onChange={() => set({ enabled: !draft.enabled })} />{" "}
            {t("maintenance:form.enabled")}
          </label>
        </fieldset>
        {canWrite ? (
          <SaveBar
            error={submit.error}
            conflict={conflict}
            onLoadTheirs={() => loaded.reload()}
            busy={submit.busy}
            label={creating ? t("maintenance:form.create") : t("maintenance:form.save")}
          />
        ) : (
          <p class="meta">{t("maintenance:form.readOnly")}</p>
        )}
      </form>
    </section>
  );
}
