// Revoking an agent, confirmed in a modal dialog that asks for the reason the API requires (at least 3
// characters): its link is cut, its queued probe runs cancelled, and it cannot come back with its key.
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Dialog } from "../components/dialog.tsx";
import { Notice, TextInput } from "../components/field.tsx";

// tenant_id is always null (no tenants yet) and the client leaves it out of what it returns.
type Agent = Omit<paths["/api/v1/agents/{agent_id}"]["get"]["responses"][200]["content"]["application/json"], "tenant_id">;

export function RevokeDialog({ agent, onClose, onRevoked }: { agent: Agent; onClose: () => void; onRevoked: () => void }) {
  const [reason, setReason] = useState("");
  const revoke = useSubmit();
  const name = agent.name ?? agent.hostname ?? `agent ${agent.id}`;
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
    <Dialog title={`Revoke ${name}?`} onClose={onClose}>
      <form onSubmit={submit}>
        <p>
          Its link is cut at once, its queued probe runs are cancelled, and it can never connect again with this key: to bring the host
          back, enroll a new agent.
        </p>
        <TextInput
          id="revoke-reason"
          label="Reason (kept in its events and the audit log)"
          value={reason}
          error={revoke.fields.reason}
          onValue={setReason}
          required
        />
        <Notice kind="error">{revoke.error}</Notice>
        <div class="actions">
          <button type="submit" class="danger" disabled={revoke.busy || reason.trim().length < 3}>
            Revoke
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
