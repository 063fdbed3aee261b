// Deleting an alert rule, confirmed in a modal dialog naming it; the rules list is shown afterwards.
import { api, ok } from "../api/client.ts";
import { DeleteDialog } from "../components/delete-dialog.tsx";
import { useT } from "../i18n/use-t.ts";
import { navigate } from "../router.tsx";

export function DeleteRuleDialog({ rule, onClose }: { rule: { id: number; name: string }; onClose: () => void }) {
  const t = useT();
  const remove = async () => {
    await ok(api.DELETE("/api/v1/alert-rules/{rule_id}", { params: { path: { rule_id: String(rule.id) } } }));
    navigate("/alert-rules");
  };
  return (
    <DeleteDialog name={rule.name} button={t("alert-rules:delete.button")} remove={remove} onClose={onClose}>
      {t("alert-rules:delete.text", { name: rule.name })}
    </DeleteDialog>
  );
}
