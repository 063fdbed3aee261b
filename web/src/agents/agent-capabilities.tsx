// An agent's grants (what it may do: host telemetry, remote probes, local discovery), each on or off with
// its settings. An administrator (admin:agents) edits them (PUT /agents/{id}/capabilities: the settings
// sent merge over the stored ones, and the API's 422 names an unknown setting); anyone else reads them.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice } from "../components/field.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

// tenant_id is always null (no tenants yet) and the client leaves it out of what it returns.
type Agent = Omit<paths["/api/v1/agents/{agent_id}"]["get"]["responses"][200]["content"]["application/json"], "tenant_id">;
type Grants = Agent["capabilities"];
type Name = keyof Grants;

const NAMES: readonly { key: Name; title: string }[] = [
  { key: "host_telemetry", title: i18nKey("agents:cap.hostTelemetry") },
  { key: "remote_probe", title: i18nKey("agents:cap.remoteProbe") },
  { key: "local_discovery", title: i18nKey("agents:cap.localDiscovery") },
];

interface Draft {
  enabled: boolean;
  config: string;
}

const draftOf = (g: Grants): Record<Name, Draft> =>
  Object.fromEntries(NAMES.map(({ key }) => [key, { enabled: g[key].enabled, config: JSON.stringify(g[key].config, null, 2) }])) as Record<
    Name,
    Draft
  >;

export function AgentCapabilities({ agent, canEdit, onSaved }: { agent: Agent; canEdit: boolean; onSaved: () => void }) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(() => draftOf(agent.capabilities));
  const [invalid, setInvalid] = useState<Partial<Record<Name, string>>>({});
  const [saved, setSaved] = useState<string | undefined>();
  const save = useSubmit();
  const editable = canEdit && agent.status === "active";

  const submit = (e: Event) => {
    e.preventDefault();
    setSaved(undefined);
    const bad: Partial<Record<Name, string>> = {};
    const capabilities: Record<string, { enabled: boolean; config: Record<string, unknown> }> = {};
    for (const { key } of NAMES) {
      try {
        const config: unknown = JSON.parse(draft[key].config || "{}");
        if (typeof config !== "object" || config === null || Array.isArray(config)) throw new Error("not an object");
        capabilities[key] = { enabled: draft[key].enabled, config: config as Record<string, unknown> };
      } catch {
        bad[key] = t("agents:cap.notObject");
      }
    }
    setInvalid(bad);
    if (Object.keys(bad).length) return;
    void save.run(async () => {
      const updated = await ok(
        api.PUT("/api/v1/agents/{agent_id}/capabilities", { params: { path: { agent_id: String(agent.id) } }, body: { capabilities } }),
      );
      onSaved();
      setDraft(draftOf(updated.capabilities));
      setEditing(false);
      setSaved(t("agents:cap.saved"));
    });
  };

  return (
    <section aria-labelledby="agent-capabilities-title">
      <header class="section-head">
        <h2 id="agent-capabilities-title">{t("agents:cap.title")}</h2>
        {editable && !editing && (
          <button
            type="button"
            onClick={() => {
              setDraft(draftOf(agent.capabilities));
              setEditing(true);
            }}
          >
            {t("agents:cap.edit")}
          </button>
        )}
        {canEdit && agent.status !== "active" && <span class="meta">{t("agents:cap.onlyActive")}</span>}
      </header>
      <Notice kind="success">{saved}</Notice>
      {!editing ? (
        <dl class="fields">
          {NAMES.map(({ key, title }) => (
            <div key={key} data-capability={key}>
              <dt>{t(title)}</dt>
              <dd>
                {agent.capabilities[key].enabled ? t("agents:cap.granted") : t("agents:cap.notGranted")}
                {Object.keys(agent.capabilities[key].config).length > 0 && (
                  <ul class="settings-list">
                    {Object.entries(agent.capabilities[key].config).map(([k, v]) => (
                      <li key={k}>
                        {k}:{" "}
                        <code>
                          {Array.isArray(v)
                            ? v.join(", ") || t("agents:cap.none")
                            : typeof v === "object" && v !== null
                              ? JSON.stringify(v)
                              : String(v)}
                        </code>
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <form class="card" onSubmit={submit} aria-label={t("agents:cap.edit")}>
          {NAMES.map(({ key, title }) => (
            <fieldset key={key}>
              <legend>{t(title)}</legend>
              <label class="check">
                <input
                  type="checkbox"
                  checked={draft[key].enabled}
                  onChange={(e) => setDraft({ ...draft, [key]: { ...draft[key], enabled: (e.currentTarget as HTMLInputElement).checked } })}
                />{" "}
                {t("agents:cap.grant")}
              </label>
              <Field
                id={`cap-${key}`}
                label={t("agents:cap.settings", { title: t(title) })}
                error={invalid[key] ?? save.fields[`capabilities.${key}`] ?? save.fields[`capabilities.${key}.config`]}
              >
                {(a11y) => (
                  <textarea
                    {...a11y}
                    rows={3}
                    value={draft[key].config}
                    onInput={(e) =>
                      setDraft({ ...draft, [key]: { ...draft[key], config: (e.currentTarget as HTMLTextAreaElement).value } })
                    }
                  />
                )}
              </Field>
            </fieldset>
          ))}
          <Notice kind="error">{save.error}</Notice>
          <div class="actions">
            <button type="submit" class="primary" disabled={save.busy}>
              {t("agents:cap.save")}
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              {t("common:cancel")}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
