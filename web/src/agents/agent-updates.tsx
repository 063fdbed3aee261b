// Updating several agents at once: the dialog that starts a staged rollout (POST /agents/rollouts) for
// the agents selected in the list, or for every active agent on another version. It proposes the newest
// version the chosen agents have available; the API's refusals (no signed build, another rollout running,
// a field out of range) are shown in it, next to their fields, and the form stays as typed.
import { useState } from "preact/hooks";
import { compareVersionsDesc } from "../../../shared/agents/version-order.ts";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Dialog } from "../components/dialog.tsx";
import { Notice, TextInput } from "../components/field.tsx";
import { i18nKey, t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

export type AgentItem = paths["/api/v1/agents"]["get"]["responses"][200]["content"]["application/json"]["items"][number];
export type Rollout = paths["/api/v1/agents/rollouts/{rollout_id}"]["get"]["responses"][200]["content"]["application/json"];

export const agentName = (a: { id: number; name?: string | null; hostname?: string | null }) =>
  a.hostname ?? a.name ?? t("agents:agentN", { id: a.id });

/** The newest available_version among `agents`, or "" when none has one. */
export function newestAvailable(agents: readonly AgentItem[]): string {
  return (
    agents
      .map((a) => a.available_version)
      .filter((v): v is string => Boolean(v))
      .sort(compareVersionsDesc)[0] ?? ""
  );
}

/** A whole number as typed, else the text itself so that the API's 422 names the field. */
const numberOrText = (s: string): number => {
  const n = Number(s.trim());
  return s.trim() !== "" && Number.isInteger(n) ? n : (s as unknown as number);
};

/** The rollout's settings, each a whole number the API checks (its 422 is shown under the field). */
const SETTINGS = [
  { name: "wave_percent", id: "rollout-wave", label: i18nKey("agents:rollout.wavePercent") },
  { name: "failure_threshold", id: "rollout-threshold", label: i18nKey("agents:rollout.threshold") },
  {
    name: "wave_timeout_seconds",
    id: "rollout-timeout",
    label: i18nKey("agents:rollout.timeout"),
    hint: i18nKey("agents:rollout.timeoutHint"),
  },
] as const;

export interface UpdateDialogProps {
  /** The agents chosen; undefined: every active agent on another version (those listed in `all`). */
  selected: readonly AgentItem[] | undefined;
  /** Every agent on the screen, for the proposed version when updating all. */
  all: readonly AgentItem[];
  onClose: () => void;
  onStarted: (rollout: Rollout) => void;
}

export function UpdateDialog({ selected, all, onClose, onStarted }: UpdateDialogProps) {
  const t = useT();
  const [form, setForm] = useState({
    version: newestAvailable(selected ?? all),
    // The API's defaults (shared/schemas/agent-rollouts.ts, ROLLOUT_DEFAULTS).
    wave_percent: "20",
    failure_threshold: "1",
    wave_timeout_seconds: "600",
  });
  const start = useSubmit();
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const submit = (e: Event) => {
    e.preventDefault();
    void start.run(async () => {
      const rollout = await ok(
        api.POST("/api/v1/agents/rollouts", {
          body: {
            ...(form.version.trim() ? { version: form.version.trim() } : {}),
            ...(selected ? { agent_ids: selected.map((a) => a.id) } : {}),
            wave_percent: numberOrText(form.wave_percent),
            failure_threshold: numberOrText(form.failure_threshold),
            wave_timeout_seconds: numberOrText(form.wave_timeout_seconds),
          },
        }),
      );
      onStarted(rollout);
      onClose();
    });
  };
  const title = selected ? t("agents:update.titleSome", { count: selected.length }) : t("agents:update.titleAll");
  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        {selected ? (
          <ul class="bulk-names" aria-label={t("agents:update.list")}>
            {selected.map((a) => (
              <li key={a.id}>
                {agentName(a)} <span class="meta">{a.agent_version ?? t("agents:update.versionUnknown")}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p>{t("agents:update.every")}</p>
        )}
        <p class="hint">{t("agents:update.how")}</p>
        <TextInput
          id="rollout-version"
          label={t("agents:version")}
          hint={t("agents:update.versionHint")}
          value={form.version}
          error={start.fields.version}
          onValue={(v) => set({ version: v })}
        />
        {SETTINGS.map((f) => (
          <TextInput
            key={f.name}
            id={f.id}
            label={t(f.label)}
            {...("hint" in f ? { hint: t(f.hint) } : {})}
            inputMode="numeric"
            value={form[f.name]}
            error={start.fields[f.name]}
            onValue={(v) => set({ [f.name]: v })}
          />
        ))}
        <Notice kind="error">{start.error}</Notice>
        <div class="actions">
          <button type="submit" class="primary" disabled={start.busy}>
            {t("agents:update.start")}
          </button>
          <button type="button" onClick={onClose}>
            {t("common:cancel")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
