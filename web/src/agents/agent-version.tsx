// An agent's version on its page: the version it runs, the newer signed build available for its platform
// with "Update to X" for an administrator (POST /agents/{id}/update: the build is sent now, or when it
// links), and the update under way with its state. Entries of the page's field list.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice } from "../components/field.tsx";
import { Available } from "./agents-table.tsx";
import { useT } from "../i18n/use-t.ts";

type Agent = Omit<paths["/api/v1/agents/{agent_id}"]["get"]["responses"][200]["content"]["application/json"], "tenant_id">;

export function AgentVersion({ agent, canUpdate, onQueued }: { agent: Agent; canUpdate: boolean; onQueued: () => void }) {
  const t = useT();
  const update = useSubmit();
  const [queued, setQueued] = useState<string | undefined>();
  const target = agent.available_version;
  const send = () =>
    update.run(async () => {
      setQueued(undefined);
      const r = await ok(
        api.POST("/api/v1/agents/{agent_id}/update", {
          params: { path: { agent_id: String(agent.id) } },
          body: { version: target ?? undefined },
        }),
      );
      setQueued(
        agent.online ? t("agents:update.queuedSent", { version: r.version }) : t("agents:update.queuedLater", { version: r.version }),
      );
      onQueued();
    });
  return (
    <>
      <div>
        <dt>{t("agents:version")}</dt>
        <dd>{agent.agent_version ?? "—"}</dd>
      </div>
      <div class="agent-update">
        <dt>{t("agents:availableVersion")}</dt>
        <dd>
          <Available agent={agent} />
          {canUpdate && target && agent.status === "active" && (
            <div>
              <button type="button" disabled={update.busy} onClick={() => void send()}>
                {t("agents:update.to", { version: target })}
              </button>
            </div>
          )}
          <Notice kind="error">{update.error}</Notice>
          <Notice kind="success">{queued}</Notice>
        </dd>
      </div>
    </>
  );
}
