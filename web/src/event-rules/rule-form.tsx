// Create or edit an event rule (docs/event-rules.md): its name, the kinds and actions it sends, what
// narrows it (a tag, a site, a condition on a field), the webhook sinks it sends to, and whether it is
// enabled. An edit sends If-Match with the version it loaded (a 412 offers to load the other change); the
// API's 422 messages are shown on their fields.
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { ApiProblem, messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice } from "../components/field.tsx";
import { RefPicker } from "../components/ref-picker.tsx";
import { SaveBar } from "../components/save-bar.tsx";
import { useT } from "../i18n/use-t.ts";
import { GROUPS } from "../inventory/groups.ts";
import { navigate } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import {
  CONDITION_OPS,
  type ConditionOp,
  conditionText,
  conditionValue,
  EVENT_RULES_SCOPE,
  RULE_ACTIONS,
  RULE_KINDS,
  type RuleAction,
  type RuleKind,
  webhookSinks,
} from "./rule-text.ts";

interface Draft {
  name: string;
  enabled: boolean;
  kinds: RuleKind[];
  actions: RuleAction[];
  tag: string;
  site: string;
  field: string;
  op: ConditionOp;
  value: string;
  sinks: number[];
}

const EMPTY: Draft = {
  name: "",
  enabled: true,
  kinds: [],
  actions: ["created", "updated", "deleted"],
  tag: "",
  site: "",
  field: "",
  op: "eq",
  value: "",
  sinks: [],
};

const toggle = <T,>(list: readonly T[], v: T, on: boolean): T[] => (on ? [...list.filter((x) => x !== v), v] : list.filter((x) => x !== v));

/** A group of checkboxes with a legend; the API's message for the field below it. */
function Checks<T extends string | number>({
  legend,
  name,
  options,
  chosen,
  label,
  onChange,
  error,
}: {
  legend: string;
  name: string;
  options: readonly T[];
  chosen: readonly T[];
  label: (v: T) => string;
  onChange: (next: T[]) => void;
  error: string | undefined;
}) {
  return (
    <fieldset class={`field checks${error ? " field-invalid" : ""}`} aria-describedby={error ? `${name}-error` : undefined}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={String(o)} class="check">
          <input
            type="checkbox"
            name={name}
            checked={chosen.includes(o)}
            onChange={(e) => onChange(toggle(chosen, o, (e.currentTarget as HTMLInputElement).checked))}
          />{" "}
          {label(o)}
        </label>
      ))}
      {error && (
        <small id={`${name}-error`} class="field-error" role="alert">
          {error}
        </small>
      )}
    </fieldset>
  );
}

export function EventRuleForm({ id }: { id?: string | undefined }) {
  const t = useT();
  const allowed = useSession().can(EVENT_RULES_SCOPE);
  const creating = id === undefined;
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [version, setVersion] = useState<number | undefined>();
  const [conflict, setConflict] = useState(false);
  const submit = useSubmit();
  const loaded = useLoad(async () => {
    if (!allowed) return undefined;
    const [rule, sinks] = await Promise.all([
      creating
        ? Promise.resolve(undefined)
        : ok(api.GET("/api/v1/event-rules/{event_rule_id}", { params: { path: { event_rule_id: id } } })),
      webhookSinks(),
    ]);
    return { rule, sinks };
  }, [id, allowed]);

  useEffect(() => {
    const r = loaded.data?.rule;
    if (!r) return;
    setDraft({
      name: r.name,
      enabled: r.enabled,
      kinds: r.kinds as RuleKind[],
      actions: r.actions as RuleAction[],
      tag: r.tag ?? "",
      site: r.site_id === null ? "" : String(r.site_id),
      field: r.condition?.field ?? "",
      op: (r.condition?.op as ConditionOp | undefined) ?? "eq",
      value: conditionText(r.condition?.value),
      sinks: r.sink_ids,
    });
    setVersion(r.version);
    setConflict(false);
  }, [loaded.data]);

  if (!allowed) return <Notice kind="info">{t("event-rules:noScope")}</Notice>;
  if (loaded.error !== undefined) return <Notice kind="error">{messageOf(loaded.error)}</Notice>;
  if (!loaded.data) return <p aria-busy="true">{t("common:loading")}</p>;
  const sinks = loaded.data.sinks;
  const set = (changes: Partial<Draft>) => setDraft((d) => ({ ...d, ...changes }));

  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      setConflict(false);
      const body = {
        name: draft.name.trim(),
        enabled: draft.enabled,
        kinds: draft.kinds,
        actions: draft.actions,
        tag: draft.tag.trim() || null,
        site_id: draft.site ? Number(draft.site) : null,
        condition: draft.field.trim() ? { field: draft.field.trim(), op: draft.op, value: conditionValue(draft.op, draft.value) } : null,
        sink_ids: draft.sinks,
      };
      try {
        const saved = creating
          ? await ok(api.POST("/api/v1/event-rules", { body }))
          : await ok(
              api.PATCH("/api/v1/event-rules/{event_rule_id}", {
                params: { path: { event_rule_id: id } },
                body,
                headers: version !== undefined ? { "If-Match": `"${version}"` } : {},
              }),
            );
        navigate(`/event-rules/${saved.id}`);
      } catch (err) {
        if (err instanceof ApiProblem && err.status === 412) setConflict(true);
        throw err;
      }
    });
  };

  const f = submit.fields;
  return (
    <section aria-labelledby="event-rule-form-title" class="form-page">
      <h1 id="event-rule-form-title">
        {creating ? t("event-rules:new") : t("event-rules:editTitle", { name: loaded.data.rule?.name ?? "" })}
      </h1>
      <form onSubmit={send} noValidate>
        <Field id="rule-name" label={t("event-rules:field.name")} error={f.name}>
          {(a11y) => (
            <input {...a11y} type="text" value={draft.name} onInput={(e) => set({ name: (e.currentTarget as HTMLInputElement).value })} />
          )}
        </Field>
        <Checks
          legend={t("event-rules:field.kinds")}
          name="kinds"
          options={RULE_KINDS}
          chosen={draft.kinds}
          label={(k) => k}
          onChange={(kinds) => set({ kinds })}
          error={f.kinds}
        />
        <Checks
          legend={t("event-rules:field.actions")}
          name="actions"
          options={RULE_ACTIONS}
          chosen={draft.actions}
          label={(a) => a}
          onChange={(actions) => set({ actions })}
          error={f.actions}
        />
        <Field id="rule-tag" label={t("event-rules:field.tag")} hint={t("event-rules:hint.tag")} error={f.tag}>
          {(a11y) => (
            <input {...a11y} type="text" value={draft.tag} onInput={(e) => set({ tag: (e.currentTarget as HTMLInputElement).value })} />
          )}
        </Field>
        <Field id="rule-site" label={t("event-rules:field.site")} error={f.site_id}>
          {(a11y) => <RefPicker source={GROUPS.sites} value={draft.site} onValue={(site) => set({ site })} a11y={a11y} />}
        </Field>
        <fieldset class="field">
          <legend>{t("event-rules:field.condition")}</legend>
          <p class="hint">{t("event-rules:hint.condition")}</p>
          <Field id="rule-condition-field" label={t("event-rules:condition.field")} error={f["condition.field"] ?? f.condition}>
            {(a11y) => (
              <input
                {...a11y}
                type="text"
                value={draft.field}
                onInput={(e) => set({ field: (e.currentTarget as HTMLInputElement).value })}
              />
            )}
          </Field>
          <Field id="rule-condition-op" label={t("event-rules:condition.op")} error={f["condition.op"]}>
            {(a11y) => (
              <select {...a11y} value={draft.op} onChange={(e) => set({ op: (e.currentTarget as HTMLSelectElement).value as ConditionOp })}>
                {CONDITION_OPS.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            id="rule-condition-value"
            label={t("event-rules:condition.value")}
            hint={t("event-rules:hint.value")}
            error={f["condition.value"]}
          >
            {(a11y) => (
              <input
                {...a11y}
                type="text"
                value={draft.value}
                onInput={(e) => set({ value: (e.currentTarget as HTMLInputElement).value })}
              />
            )}
          </Field>
        </fieldset>
        {sinks.size === 0 ? (
          <Notice kind="info">{t("event-rules:noSinks")}</Notice>
        ) : (
          <Checks
            legend={t("event-rules:field.sinks")}
            name="sink_ids"
            options={[...sinks.keys()]}
            chosen={draft.sinks}
            label={(s) => sinks.get(s) ?? `#${s}`}
            onChange={(next) => set({ sinks: next })}
            error={f.sink_ids}
          />
        )}
        <label class="check">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => set({ enabled: (e.currentTarget as HTMLInputElement).checked })}
          />{" "}
          {t("event-rules:field.enabled")}
        </label>
        <SaveBar
          error={submit.errorBesides(["name", "kinds", "actions", "tag", "site_id", "condition", "sink_ids"])}
          conflict={conflict}
          onLoadTheirs={() => loaded.reload()}
          busy={submit.busy}
          label={creating ? t("event-rules:create") : t("event-rules:save")}
        />
      </form>
    </section>
  );
}
