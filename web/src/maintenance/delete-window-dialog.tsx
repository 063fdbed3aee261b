// Deleting a maintenance window, confirmed in a modal dialog naming it; sent with If-Match, so a window
// changed meanwhile is not deleted unseen. The list is shown afterwards.
import { api, ok } from "../api/client.ts";
import { DeleteDialog } from "../components/delete-dialog.tsx";
import { useT } from "../i18n/use-t.ts";
import { navigate } from "../router.tsx";

export function DeleteWindowDialog({
  window: w,
  version,
  onClose,
}: {
  window: { id: number; name: string; active: boolean };
  version: number | undefined;
  onClose: () => void;
}) {
  const t = useT();
  const remove = async () => {
    await ok(
      api.DELETE("/api/v1/monitors/maintenance-windows/{window_id}", {
        params: { path: { window_id: String(w.id) } },
        headers: version !== undefined ? { "If-Match": `W/"${version}"` } : {},
      }),
    );
    navigate("/maintenance");
  };
  return (
    <DeleteDialog name={w.name} button={t("maintenance:delete.button")} remove={remove} onClose={onClose}>
      {w.active ? t("maintenance:delete.open", { name: w.name }) : t("maintenance:delete.closed", { name: w.name })}
    </DeleteDialog>
  );
}
