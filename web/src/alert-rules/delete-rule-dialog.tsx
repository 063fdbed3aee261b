// Deleting an alert rule, confirmed in a modal dialog naming it; the rules list is shown afterwards.
import { api, ok } from "../api/client.ts";
import { DeleteDialog } from "../components/delete-dialog.tsx";
import { navigate } from "../router.tsx";

export function DeleteRuleDialog({ rule, onClose }: { rule: { id: number; name: string }; onClose: () => void }) {
  const remove = async () => {
    await ok(api.DELETE("/api/v1/alert-rules/{rule_id}", { params: { path: { rule_id: String(rule.id) } } }));
    navigate("/alert-rules");
  };
  return (
    <DeleteDialog name={rule.name} button="Delete rule" remove={remove} onClose={onClose}>
      The rule {rule.name} stops being judged and its per-node state is deleted with it; each node it left firing gets a clear alert saying
      the rule was deleted, and alerts it already raised stay. This cannot be undone.
    </DeleteDialog>
  );
}
