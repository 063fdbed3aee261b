// The monitor form's vantage points (docs/adr/0441): the agents that run the check too (a checkbox per
// active agent), whether the server checks it as well, and the quorum Q (empty: a majority). The API
// judges eligibility and the quorum's bound; its 422 shows here, a list entry's under the list.
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { majority } from "../../../shared/domain/monitors/quorum.ts";

export interface VantageDraft {
  agent_ids: number[];
  sidecar: boolean;
  quorum: string;
}

/** The first 422 message about the list or one of its entries (`vantage_agent_ids.<i>`). */
const listError = (errors: Record<string, string>) =>
  Object.entries(errors).find(([k]) => k === "vantage_agent_ids" || k.startsWith("vantage_agent_ids."))?.[1];

export function VantageFields({
  draft,
  onDraft,
  errors,
}: {
  draft: VantageDraft;
  onDraft: (change: Partial<VantageDraft>) => void;
  errors: Record<string, string>;
}) {
  const t = useT();
  const agents = useLoad(() => ok(api.GET("/api/v1/agents", { params: { query: { limit: "100", sort: "name" } } })), []);
  const error = listError(errors);
  const toggle = (id: number) =>
    onDraft({ agent_ids: draft.agent_ids.includes(id) ? draft.agent_ids.filter((a) => a !== id) : [...draft.agent_ids, id] });
  const choices = (agents.data?.items ?? []).filter((a) => a.status === "active" || draft.agent_ids.includes(a.id));
  const points = draft.agent_ids.length + (draft.sidecar ? 1 : 0);
  return (
    <fieldset class="vantage-fields" aria-describedby="vantage-hint">
      <legend>{t("monitoring:vantage.title")}</legend>
      <small id="vantage-hint" class="hint">
        {t("monitoring:vantage.hint")}
      </small>
      {agents.error !== undefined && <Notice kind="error">{messageOf(agents.error)}</Notice>}
      <div class={`field${error ? " field-invalid" : ""}`}>
        {choices.length === 0 && agents.data && <p class="meta">{t("monitoring:vantage.noAgents")}</p>}
        {choices.map((a) => (
          <label key={a.id} class="check row">
            <input type="checkbox" checked={draft.agent_ids.includes(a.id)} onChange={() => toggle(a.id)} />{" "}
            {a.name ?? a.hostname ?? t("monitoring:vantage.agent", { id: a.id })}
          </label>
        ))}
        {error && (
          <small class="field-error" role="alert">
            {error}
          </small>
        )}
      </div>
      {draft.agent_ids.length > 0 && (
        <>
          <label class="check row">
            <input type="checkbox" checked={draft.sidecar} onChange={() => onDraft({ sidecar: !draft.sidecar })} />{" "}
            {t("monitoring:vantage.sidecar")}
          </label>
          <TextInput
            id="monitor-quorum"
            label={t("monitoring:vantage.quorum")}
            inputMode="numeric"
            value={draft.quorum}
            error={errors.quorum}
            hint={t("monitoring:vantage.quorumHint", { points, majority: majority(points) })}
            onValue={(quorum) => onDraft({ quorum })}
          />
        </>
      )}
    </fieldset>
  );
}
