// Deleting an alert rule, confirmed in a modal dialog naming it; the rules list is shown afterwards.
import { api, ok } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Dialog } from "../components/dialog.tsx";
import { Notice } from "../components/field.tsx";
import { navigate } from "../router.tsx";

export function DeleteRuleDialog({ rule, onClose }: { rule: { id: number; name: string }; onClose: () => void }) {
  const remove = useSubmit();
  const submit = (e: Event) => {
    e.preventDefault();
    void remove.run(async () => {
      await ok(api.DELETE("/api/v1/alert-rules/{rule_id}", { params: { path: { rule_id: String(rule.id) } } }));
      navigate("/alert-rules");
    });
  };
  return (
    <Dialog title={`Delete ${rule.name}?`} onClose={onClose}>
      <form onSubmit={submit}>
        <p>
          The rule {rule.name} stops being judged and its per-node state is deleted with it; alerts it already raised stay. This cannot be
          undone.
        </p>
        <Notice kind="error">{remove.error}</Notice>
        <div class="actions">
          <button type="submit" class="danger" disabled={remove.busy}>
            Delete rule
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
