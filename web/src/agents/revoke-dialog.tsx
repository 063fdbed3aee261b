// Revoking an agent, confirmed in a modal dialog that asks for the reason the API requires (at least 3
// characters): its link is cut, its queued probe runs cancelled, and it cannot come back with its key.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Dialog } from "../components/dialog.tsx";
import { Notice, TextInput } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";

// tenant_id is always null (no tenants yet) and the client leaves it out of what it returns.
type Agent = Omit<paths["/api/v1/agents/{agent_id}"]["get"]["responses"][200]["content"]["application/json"], "tenant_id">;

export function RevokeDialog({ agent, onClose, onRevoked }: { agent: Agent; onClose: () => void; onRevoked: () => void }) {
  const t = useT();
  const [reason, setReason] = useState("");
  const revoke = useSubmit();
  const name = agent.name ?? agent.hostname ?? t("agents:agentN", { id: agent.id });
  const submit = (e: Event) => {
    e.preventDefault();
    void revoke.run(async () => {
      await ok(
        api.POST("/api/v1/agents/{agent_id}/revoke", { params: { path: { agent_id: String(agent.id) } }, body: { reason: reason.trim() } }),
      );
      onRevoked();
      onClose();
    });
  };
  return (
    <Dialog title={t("agents:revoke.title", { name })} onClose={onClose}>
      <form onSubmit={submit}>
        <p>{t("agents:revoke.text")}</p>
        <TextInput
          id="revoke-reason"
          label={t("agents:revoke.reason")}
          value={reason}
          error={revoke.fields.reason}
          onValue={setReason}
          required
        />
        <Notice kind="error">{revoke.error}</Notice>
        <div class="actions">
          <button type="submit" class="danger" disabled={revoke.busy || reason.trim().length < 3}>
            {t("agents:revoke.button")}
          </button>
          <button type="button" onClick={onClose}>
            {t("common:cancel")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
