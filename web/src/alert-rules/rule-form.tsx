// Create and edit a threshold alert rule (/alert-rules/new, /alert-rules/<id>/edit): every field of the
// API (docs/alert-rules.md), the metric picked from the catalogue the API checks against (a filesystem's
// metric takes its mount point as text), the scope's node or site through the search picker. "Test against
// the last hour" sends the draft to POST /alert-rules/test and says per node what it would have done. The
// API's 422 (of a save or a test) is shown on each field; an edit sends If-Match with the version it
// loaded, so a concurrent change is a 412 shown with "Load their version", never overwritten.
import { SaveBar } from "../components/save-bar.tsx";
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { ApiProblem, messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice, TextInput } from "../components/field.tsx";
import { RefPicker } from "../components/ref-picker.tsx";
import { GROUPS } from "../inventory/groups.ts";
import { Link, navigate } from "../router.tsx";
import { metricDescription } from "../i18n/domain-text.ts";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { AGGREGATIONS, type OPERATORS, RULE_SEVERITIES, SCOPE_KINDS } from "../../../shared/domain/alert-rules/evaluate.ts";
import { FS_METRIC, findMetric, METRICS } from "../../../shared/domain/alert-rules/metrics.ts";
import { RuleTestResult } from "./rule-test.tsx";
import type { TestResult } from "./rule-text.ts";

interface Draft {
  name: string;
  description: string;
  /** A catalogue name, or FS_METRIC for a filesystem's metric (its mount point in `mount`). */
  metric: string;
  mount: string;
  operator: (typeof OPERATORS)[number];
  threshold: string;
  clear_threshold: string;
  aggregation: (typeof AGGREGATIONS)[number];
  window_secs: string;
  for_secs: string;
  severity: (typeof RULE_SEVERITIES)[number];
  scope_kind: (typeof SCOPE_KINDS)[number];
  scope_node_id: string;
  scope_tag: string;
  scope_site_id: string;
  enabled: boolean;
}

const EMPTY: Draft = {
  name: "",
  description: "",
  metric: METRICS[0]!.name,
  mount: "",
  operator: ">",
  threshold: "",
  clear_threshold: "",
  aggregation: "last",
  window_secs: "300",
  for_secs: "0",
  severity: "warning",
  scope_kind: "all",
  scope_node_id: "",
  scope_tag: "",
  scope_site_id: "",
  enabled: true,
};
// Catalogue keys: `t(SCOPES[k])`.
const SCOPES: Record<Draft["scope_kind"], string> = {
  all: i18nKey("alert-rules:form.scope.all"),
  node: i18nKey("alert-rules:form.scope.node"),
  tag: i18nKey("alert-rules:form.scope.tag"),
  site: i18nKey("alert-rules:form.scope.site"),
};
const text = (v: number | string | null | undefined) => (v == null ? "" : String(v));
/** A number as a number; anything else as typed, so the API's 422 names the field. */
const num = (raw: string) => (raw.trim() !== "" && Number.isFinite(Number(raw)) ? Number(raw) : raw);

/** The body of create, of PATCH and of the test: the API's fields from the draft. */
function bodyOf(d: Draft, creating: boolean) {
  return {
    name: d.name.trim(),
    description: d.description.trim() === "" ? null : d.description.trim(),
    enabled: d.enabled,
    metric: d.metric === FS_METRIC ? `${FS_METRIC}{${d.mount.trim()}}` : d.metric,
    operator: d.operator,
    threshold: num(d.threshold.trim()),
    // Empty: the threshold (the API's default; on an edit null says so).
    ...(d.clear_threshold.trim() === "" ? (creating ? {} : { clear_threshold: null }) : { clear_threshold: num(d.clear_threshold.trim()) }),
    aggregation: d.aggregation,
    // `last` has no window: the field is hidden and the stored one kept.
    ...(d.aggregation === "last" || d.window_secs.trim() === "" ? {} : { window_secs: num(d.window_secs.trim()) }),
    ...(d.for_secs.trim() === "" ? {} : { for_secs: num(d.for_secs.trim()) }),
    severity: d.severity,
    scope_kind: d.scope_kind,
    scope_node_id: d.scope_kind === "node" && d.scope_node_id !== "" ? num(d.scope_node_id) : null,
    scope_tag: d.scope_kind === "tag" && d.scope_tag.trim() !== "" ? d.scope_tag.trim() : null,
    scope_site_id: d.scope_kind === "site" && d.scope_site_id !== "" ? num(d.scope_site_id) : null,
  };
}

export function RuleForm({ id }: { id?: string | undefined }) {
  const t = useT();
  const creating = id === undefined;
  const session = useSession();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [version, setVersion] = useState<number | undefined>();
  const [conflict, setConflict] = useState(false);
  const submit = useSubmit();
  const trial = useSubmit();
  const [tested, setTested] = useState<TestResult | undefined>();
  // Whose messages the fields show: the latest of a save and a test (an older one's no longer hold).
  const [latest, setLatest] = useState<"save" | "test">("save");
  const loaded = useLoad(
    async () => (creating ? undefined : ok(api.GET("/api/v1/alert-rules/{rule_id}", { params: { path: { rule_id: id } } }))),
    [id],
  );

  useEffect(() => {
    const r = loaded.data;
    if (!r) return;
    const fs = findMetric(r.metric)?.mount;
    setDraft({
      name: r.name,
      description: r.description ?? "",
      metric: fs === undefined ? r.metric : FS_METRIC,
      mount: fs ?? "",
      operator: r.operator,
      threshold: text(r.threshold),
      // Equal to the threshold is the default: shown empty, so it follows a changed threshold.
      clear_threshold: r.clear_threshold === r.threshold ? "" : text(r.clear_threshold),
      aggregation: r.aggregation,
      window_secs: text(r.window_secs),
      for_secs: text(r.for_secs),
      severity: r.severity,
      scope_kind: r.scope_kind,
      scope_node_id: text(r.scope_node_id),
      scope_tag: r.scope_tag ?? "",
      scope_site_id: text(r.scope_site_id),
      enabled: r.enabled,
    });
    // The server's ETag is updated_at in epoch ms (functions/routes/monitors/alert-rule-routes.ts).
    setVersion(Date.parse(r.updated_at));
    setConflict(false);
  }, [loaded.data]);

  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));

  const send = (e: Event) => {
    e.preventDefault();
    setLatest("save");
    void submit.run(async () => {
      setConflict(false);
      const body = bodyOf(draft, creating);
      try {
        // The body's types are the API's; values typed wrong on purpose reach it as typed, for its 422.
        const saved = creating
          ? await ok(api.POST("/api/v1/alert-rules", { body: body as never }))
          : await ok(
              api.PATCH("/api/v1/alert-rules/{rule_id}", {
                params: { path: { rule_id: id } },
                body: body as never,
                headers: version !== undefined ? { "If-Match": `W/"${version}"` } : {},
              }),
            );
        navigate(`/alert-rules/${saved.id}`);
      } catch (err) {
        if (err instanceof ApiProblem && err.status === 412) setConflict(true);
        throw err;
      }
    });
  };
  const test = () => {
    setLatest("test");
    void trial.run(async () => {
      setTested(undefined);
      // The test takes a whole rule as create does, saved or not.
      setTested(await ok(api.POST("/api/v1/alert-rules/test", { body: bodyOf(draft, true) as never })));
    });
  };

  if (!session.can("write:monitors")) return <Notice kind="error">{t("alert-rules:form.forbidden")}</Notice>;
  if (!creating && loaded.error !== undefined) return <Notice kind="error">{messageOf(loaded.error)}</Notice>;
  if (!creating && !loaded.data) return <p aria-busy="true">{t("common:loading")}</p>;
  const f = latest === "test" ? trial.fields : submit.fields;
  // The filesystem metric's description names the mount once one is given.
  const description = metricDescription(
    t,
    draft.metric === FS_METRIC && draft.mount.trim() ? `${FS_METRIC}{${draft.mount.trim()}}` : draft.metric,
  );
  return (
    <section aria-labelledby="form-title" class="form-page rule-form">
      <p class="crumbs">
        <Link href="/alert-rules">{t("alert-rules:title")}</Link>
        {!creating && (
          <>
            {" "}
            / <Link href={`/alert-rules/${id}`}>{loaded.data!.name}</Link>
          </>
        )}
      </p>
      <h1 id="form-title">{creating ? t("alert-rules:form.new") : t("alert-rules:form.edit", { name: loaded.data!.name })}</h1>
      <form onSubmit={send} noValidate>
        <TextInput id="rule-name" label={t("alert-rules:col.name")} value={draft.name} error={f.name} onValue={(name) => set({ name })} />
        <TextInput
          id="rule-description"
          label={t("alert-rules:form.description")}
          value={draft.description}
          error={f.description}
          hint={t("alert-rules:form.optional")}
          onValue={(description) => set({ description })}
        />
        <Field id="rule-metric" label={t("alert-rules:page.metric")} error={f.metric} {...(description ? { hint: description } : {})}>
          {(a11y) => (
            <select {...a11y} value={draft.metric} onChange={(e) => set({ metric: (e.currentTarget as HTMLSelectElement).value })}>
              {METRICS.map((m) => (
                <option key={m.name} value={m.name}>
                  {m.name}
                  {m.unit ? ` (${m.unit})` : ""}
                </option>
              ))}
              <option value={FS_METRIC}>
                {FS_METRIC}
                {t("alert-rules:form.fsMetric")}
              </option>
            </select>
          )}
        </Field>
        {draft.metric === FS_METRIC && (
          <TextInput
            id="rule-mount"
            label={t("alert-rules:form.mount")}
            value={draft.mount}
            hint={t("alert-rules:form.mountHint")}
            onValue={(mount) => set({ mount })}
          />
        )}
        <Field id="rule-aggregation" label={t("alert-rules:page.compare")} error={f.aggregation} hint={t("alert-rules:form.compareHint")}>
          {(a11y) => (
            <select
              {...a11y}
              value={draft.aggregation}
              onChange={(e) => set({ aggregation: (e.currentTarget as HTMLSelectElement).value as Draft["aggregation"] })}
            >
              {AGGREGATIONS.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          )}
        </Field>
        {draft.aggregation !== "last" && (
          <TextInput
            id="rule-window"
            label={t("alert-rules:form.window")}
            inputMode="numeric"
            value={draft.window_secs}
            error={f.window_secs}
            hint={t("alert-rules:form.windowHint")}
            onValue={(window_secs) => set({ window_secs })}
          />
        )}
        <Field id="rule-operator" label={t("alert-rules:form.operator")} error={f.operator}>
          {(a11y) => (
            <select
              {...a11y}
              value={draft.operator}
              onChange={(e) => set({ operator: (e.currentTarget as HTMLSelectElement).value as Draft["operator"] })}
            >
              <option value=">">{t("alert-rules:form.above")}</option>
              <option value="<">{t("alert-rules:form.below")}</option>
            </select>
          )}
        </Field>
        <TextInput
          id="rule-threshold"
          label={t("alert-rules:form.threshold")}
          inputMode="decimal"
          value={draft.threshold}
          error={f.threshold}
          onValue={(threshold) => set({ threshold })}
        />
        <TextInput
          id="rule-clear"
          label={t("alert-rules:form.clear")}
          inputMode="decimal"
          value={draft.clear_threshold}
          error={f.clear_threshold}
          hint={draft.operator === ">" ? t("alert-rules:form.clearBelowHint") : t("alert-rules:form.clearAboveHint")}
          onValue={(clear_threshold) => set({ clear_threshold })}
        />
        <TextInput
          id="rule-for"
          label={t("alert-rules:form.for")}
          inputMode="numeric"
          value={draft.for_secs}
          error={f.for_secs}
          hint={t("alert-rules:form.forHint")}
          onValue={(for_secs) => set({ for_secs })}
        />
        <Field id="rule-severity" label={t("alert-rules:col.severity")} error={f.severity} hint={t("alert-rules:form.severityHint")}>
          {(a11y) => (
            <select
              {...a11y}
              value={draft.severity}
              onChange={(e) => set({ severity: (e.currentTarget as HTMLSelectElement).value as Draft["severity"] })}
            >
              {RULE_SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="rule-scope" label={t("alert-rules:col.appliesTo")} error={f.scope_kind}>
          {(a11y) => (
            <select
              {...a11y}
              value={draft.scope_kind}
              onChange={(e) => set({ scope_kind: (e.currentTarget as HTMLSelectElement).value as Draft["scope_kind"] })}
            >
              {SCOPE_KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(SCOPES[k])}
                </option>
              ))}
            </select>
          )}
        </Field>
        {draft.scope_kind === "node" && (
          <Field id="rule-scope-node" label={t("alert-rules:page.node")} error={f.scope_node_id}>
            {(a11y) => (
              <RefPicker
                source={GROUPS.hardware}
                value={draft.scope_node_id}
                onValue={(scope_node_id) => set({ scope_node_id })}
                a11y={a11y}
              />
            )}
          </Field>
        )}
        {draft.scope_kind === "tag" && (
          <TextInput
            id="rule-scope-tag"
            label={t("alert-rules:form.tag")}
            value={draft.scope_tag}
            error={f.scope_tag}
            onValue={(scope_tag) => set({ scope_tag })}
          />
        )}
        {draft.scope_kind === "site" && (
          <Field id="rule-scope-site" label={t("alert-rules:form.site")} error={f.scope_site_id}>
            {(a11y) => (
              <RefPicker
                source={GROUPS.sites}
                value={draft.scope_site_id}
                onValue={(scope_site_id) => set({ scope_site_id })}
                a11y={a11y}
              />
            )}
          </Field>
        )}
        <label class="check row">
          <input type="checkbox" checked={draft.enabled} onChange={() => set({ enabled: !draft.enabled })} />{" "}
          {t("alert-rules:form.enabled")}
        </label>
        <div class="actions">
          <button type="button" disabled={trial.busy} onClick={test}>
            {trial.busy ? t("alert-rules:form.testing") : t("alert-rules:test.title")}
          </button>
        </div>
        {latest === "test" && <Notice kind="error">{trial.error}</Notice>}
        {tested && <RuleTestResult result={tested} />}
        <SaveBar
          error={latest === "test" ? undefined : submit.error}
          conflict={latest !== "test" && conflict}
          onLoadTheirs={() => loaded.reload()}
          busy={submit.busy}
          label={creating ? t("alert-rules:form.create") : t("alert-rules:form.save")}
        />
      </form>
    </section>
  );
}
