// Escalation policies (docs/notifications.md, "Escalation"): steps of (wait N minutes unacknowledged,
// then notify these sinks), repeated, with an optional re-notification. Listed, created, edited (with
// If-Match) and deleted here; a route names one in its paging settings (route-paging.tsx).
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { Table } from "./table.tsx";
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

export type Policy =
  paths["/api/v1/notifications/escalation-policies"]["get"]["responses"][200]["content"]["application/json"]["items"][number];
type Sink = { id: number; name: string };
interface StepDraft {
  after_minutes: string;
  sink_ids: number[];
}

const ifMatch = (p: Policy) => ({ "If-Match": `W/"${Date.parse(p.updated_at)}"` });

export function describeSteps(p: Policy, nameOf: (id: number) => string): string {
  return p.steps
    .map((s, i) => t("settings:policies.stepText", { n: i + 1, minutes: s.after_minutes, sinks: s.sink_ids.map(nameOf).join(", ") }))
    .join("; ");
}

export function EscalationPolicies({
  policies,
  sinks,
  canEdit,
  onChanged,
}: {
  policies: readonly Policy[];
  sinks: readonly Sink[];
  canEdit: boolean;
  onChanged: () => void;
}) {
  const t = useT();
  const [editing, setEditing] = useState<Policy | "new" | undefined>();
  const act = useSubmit();
  const nameOf = (id: number) => sinks.find((s) => s.id === id)?.name ?? `#${id}`;
  return (
    <>
      <h2>{t("settings:policies.title")}</h2>
      <Notice kind="error">{act.error}</Notice>
      {policies.length === 0 && <p class="empty">{t("settings:policies.empty")}</p>}
      {policies.length > 0 && (
        <Table
          caption={t("settings:policies.title")}
          columns={[
            t("settings:name"),
            t("settings:policies.steps"),
            t("settings:policies.repeat"),
            t("settings:policies.renotify"),
            t("settings:routes.title"),
          ]}
          actions={canEdit}
        >
          {policies.map((p) => (
            <tr key={p.id} data-policy={p.id}>
              <td data-label={t("settings:name")}>{p.name}</td>
              <td data-label={t("settings:policies.steps")}>{describeSteps(p, nameOf)}</td>
              <td data-label={t("settings:policies.repeat")}>
                {p.repeat === 0 ? t("settings:policies.once") : t("settings:policies.more", { count: p.repeat })}
              </td>
              <td data-label={t("settings:policies.renotify")}>
                {p.renotify_every_minutes ? t("settings:policies.every", { minutes: p.renotify_every_minutes }) : "—"}
              </td>
              <td data-label={t("settings:routes.title")}>{p.route_ids.length}</td>
              {canEdit && (
                <td>
                  <button type="button" onClick={() => setEditing(p)}>
                    {t("settings:edit")}
                  </button>
                  <button
                    type="button"
                    class="danger"
                    disabled={act.busy}
                    onClick={() =>
                      void act.run(async () => {
                        if (!confirm(t("settings:policies.confirmDelete", { name: p.name }))) return;
                        await ok(
                          api.DELETE("/api/v1/notifications/escalation-policies/{policy_id}", {
                            params: { path: { policy_id: String(p.id) } },
                            headers: ifMatch(p),
                          }),
                        );
                        onChanged();
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
      )}
      {canEdit && sinks.length > 0 && editing === undefined && (
        <button type="button" onClick={() => setEditing("new")}>
          {t("settings:policies.new")}
        </button>
      )}
      {canEdit && editing !== undefined && (
        <PolicyForm
          key={editing === "new" ? "new" : editing.id}
          policy={editing === "new" ? undefined : editing}
          sinks={sinks}
          onDone={(saved) => {
            setEditing(undefined);
            if (saved) onChanged();
          }}
        />
      )}
    </>
  );
}

function PolicyForm({ policy, sinks, onDone }: { policy: Policy | undefined; sinks: readonly Sink[]; onDone: (saved: boolean) => void }) {
  const t = useT();
  const [name, setName] = useState(policy?.name ?? "");
  const [steps, setSteps] = useState<StepDraft[]>(
    policy?.steps.map((s) => ({ after_minutes: String(s.after_minutes), sink_ids: [...s.sink_ids] })) ?? [
      { after_minutes: "5", sink_ids: [] },
    ],
  );
  const [repeat, setRepeat] = useState(String(policy?.repeat ?? 0));
  const [renotify, setRenotify] = useState(policy?.renotify_every_minutes ? String(policy.renotify_every_minutes) : "");
  const submit = useSubmit();
  const title = policy ? t("settings:policies.edit", { name: policy.name }) : t("settings:policies.new");
  const change = (i: number, next: Partial<StepDraft>) => setSteps(steps.map((s, j) => (j === i ? { ...s, ...next } : s)));

  const save = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      const body = {
        name,
        steps: steps.map((s) => ({ after_minutes: Number(s.after_minutes), sink_ids: s.sink_ids })),
        repeat: Number(repeat),
        renotify_every_minutes: renotify.trim() ? Number(renotify) : null,
      };
      if (policy)
        await ok(
          api.PATCH("/api/v1/notifications/escalation-policies/{policy_id}", {
            params: { path: { policy_id: String(policy.id) } },
            body,
            headers: ifMatch(policy),
          }),
        );
      else await ok(api.POST("/api/v1/notifications/escalation-policies", { body }));
      onDone(true);
    });
  };

  return (
    <form class="card" onSubmit={save} noValidate aria-labelledby="policy-form">
      <h3 id="policy-form">{title}</h3>
      <TextInput id="policy-name" label={t("settings:policies.name")} value={name} error={submit.fields.name} onValue={setName} />
      {steps.map((s, i) => (
        <fieldset key={i} class="card">
          <legend>{t("settings:policies.step", { n: i + 1 })}</legend>
          <TextInput
            id={`policy-step-${i}-after`}
            label={t("settings:policies.wait", { n: i + 1 })}
            inputMode="numeric"
            hint={i === 0 ? t("settings:policies.waitFirst") : t("settings:policies.waitNext")}
            value={s.after_minutes}
            error={submit.fields[`steps.${i}.after_minutes`]}
            onValue={(v) => change(i, { after_minutes: v })}
          />
          <fieldset aria-describedby={submit.fields[`steps.${i}.sink_ids`] ? `policy-step-${i}-sinks-error` : undefined}>
            <legend>{t("settings:policies.notify", { n: i + 1 })}</legend>
            {sinks.map((k) => (
              <label key={k.id} class="check">
                <input
                  type="checkbox"
                  checked={s.sink_ids.includes(k.id)}
                  onChange={(e) =>
                    change(i, {
                      sink_ids: (e.currentTarget as HTMLInputElement).checked
                        ? [...s.sink_ids, k.id]
                        : s.sink_ids.filter((id) => id !== k.id),
                    })
                  }
                />{" "}
                {k.name}
              </label>
            ))}
            {submit.fields[`steps.${i}.sink_ids`] && (
              <small id={`policy-step-${i}-sinks-error`} class="field-error" role="alert">
                {submit.fields[`steps.${i}.sink_ids`]}
              </small>
            )}
          </fieldset>
          {steps.length > 1 && (
            <button type="button" onClick={() => setSteps(steps.filter((_, j) => j !== i))}>
              {t("settings:policies.removeStep", { n: i + 1 })}
            </button>
          )}
        </fieldset>
      ))}
      <button type="button" onClick={() => setSteps([...steps, { after_minutes: "10", sink_ids: [] }])}>
        {t("settings:policies.addStep")}
      </button>
      <TextInput
        id="policy-repeat"
        label={t("settings:policies.repeatInput")}
        inputMode="numeric"
        hint={t("settings:policies.repeatInput.hint")}
        value={repeat}
        error={submit.fields.repeat}
        onValue={setRepeat}
      />
      <TextInput
        id="policy-renotify"
        label={t("settings:policies.renotifyInput")}
        inputMode="numeric"
        hint={t("settings:policies.renotifyInput.hint")}
        value={renotify}
        error={submit.fields.renotify_every_minutes}
        onValue={setRenotify}
      />
      <Notice kind="error">{submit.error}</Notice>
      <button type="submit" disabled={submit.busy}>
        {policy ? t("settings:policies.save") : t("settings:policies.create")}
      </button>
      <button type="button" onClick={() => onDone(false)}>
        {t("common:cancel")}
      </button>
    </form>
  );
}
